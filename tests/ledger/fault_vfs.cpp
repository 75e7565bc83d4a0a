#include "fault_vfs.h"

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cassert>
#include <cstring>

namespace bb::ledger::testing {

namespace {

struct State {
  std::atomic<FaultVfs::Mode> mode{FaultVfs::Mode::count};
  std::atomic<std::int64_t> count{0};
  std::atomic<std::int64_t> at{0};
  std::atomic<bool> torn{false};
  std::atomic<bool> disk_full{false};
  std::atomic<bool> failing{false};
  std::atomic<bool> skip_syncs{false};
  std::atomic<int> signo{0};
};
State state;

sqlite3_vfs* real_vfs = nullptr;
sqlite3_vfs fault_vfs;
sqlite3_io_methods fault_methods;

struct FaultFile {
  sqlite3_file base;
  sqlite3_file* real;
};

sqlite3_file* real_of(sqlite3_file* f) { return reinterpret_cast<FaultFile*>(f)->real; }

// Counts one durable operation; returns an error code to report instead of doing it, or SQLITE_OK.
int tick(bool is_write, sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  if (state.failing) return state.disk_full ? SQLITE_FULL : SQLITE_IOERR_WRITE;
  std::int64_t n = ++state.count;
  FaultVfs::Mode mode = state.mode;
  if (n != state.at) return SQLITE_OK;
  switch (mode) {
    case FaultVfs::Mode::kill:
      if (is_write && state.torn && amount > 1) {
        real_of(file)->pMethods->xWrite(real_of(file), data, amount / 2, offset);
      }
      ::kill(::getpid(), SIGKILL);
      ::pause();
      return SQLITE_IOERR;
    case FaultVfs::Mode::fail:
      state.failing = true;
      return state.disk_full ? SQLITE_FULL : SQLITE_IOERR_WRITE;
    case FaultVfs::Mode::fail_once:
      return state.disk_full ? SQLITE_FULL : (is_write ? SQLITE_IOERR_WRITE : SQLITE_IOERR_FSYNC);
    case FaultVfs::Mode::signal:
      ::kill(::getpid(), state.signo);
      return SQLITE_OK;
    case FaultVfs::Mode::count:
      return SQLITE_OK;
  }
  return SQLITE_OK;
}

int x_close(sqlite3_file* f) { return real_of(f)->pMethods->xClose(real_of(f)); }
int x_read(sqlite3_file* f, void* buf, int amount, sqlite3_int64 offset) {
  return real_of(f)->pMethods->xRead(real_of(f), buf, amount, offset);
}
int x_write(sqlite3_file* f, const void* buf, int amount, sqlite3_int64 offset) {
  if (int rc = tick(true, f, buf, amount, offset); rc != SQLITE_OK) return rc;
  return real_of(f)->pMethods->xWrite(real_of(f), buf, amount, offset);
}
int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  return real_of(f)->pMethods->xTruncate(real_of(f), size);
}
int x_sync(sqlite3_file* f, int flags) {
  if (int rc = tick(false, f, nullptr, 0, 0); rc != SQLITE_OK) return rc;
  if (state.skip_syncs) return SQLITE_OK;
  return real_of(f)->pMethods->xSync(real_of(f), flags);
}
int x_file_size(sqlite3_file* f, sqlite3_int64* size) {
  return real_of(f)->pMethods->xFileSize(real_of(f), size);
}
int x_lock(sqlite3_file* f, int level) { return real_of(f)->pMethods->xLock(real_of(f), level); }
int x_unlock(sqlite3_file* f, int level) { return real_of(f)->pMethods->xUnlock(real_of(f), level); }
int x_check_reserved(sqlite3_file* f, int* out) {
  return real_of(f)->pMethods->xCheckReservedLock(real_of(f), out);
}
int x_file_control(sqlite3_file* f, int op, void* arg) {
  return real_of(f)->pMethods->xFileControl(real_of(f), op, arg);
}
int x_sector_size(sqlite3_file* f) { return real_of(f)->pMethods->xSectorSize(real_of(f)); }
int x_device(sqlite3_file* f) { return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f)); }
int x_shm_map(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
  return real_of(f)->pMethods->xShmMap(real_of(f), page, size, extend, out);
}
int x_shm_lock(sqlite3_file* f, int offset, int n, int flags) {
  return real_of(f)->pMethods->xShmLock(real_of(f), offset, n, flags);
}
void x_shm_barrier(sqlite3_file* f) { real_of(f)->pMethods->xShmBarrier(real_of(f)); }
int x_shm_unmap(sqlite3_file* f, int delete_flag) {
  return real_of(f)->pMethods->xShmUnmap(real_of(f), delete_flag);
}
int x_fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
  return real_of(f)->pMethods->xFetch(real_of(f), offset, amount, out);
}
int x_unfetch(sqlite3_file* f, sqlite3_int64 offset, void* p) {
  return real_of(f)->pMethods->xUnfetch(real_of(f), offset, p);
}

int x_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  auto* wrapper = reinterpret_cast<FaultFile*>(file);
  wrapper->real = reinterpret_cast<sqlite3_file*>(wrapper + 1);
  wrapper->base.pMethods = nullptr;
  int rc = real_vfs->xOpen(real_vfs, name, wrapper->real, flags, out_flags);
  if (wrapper->real->pMethods) wrapper->base.pMethods = &fault_methods;
  return rc;
}

}  // namespace

void FaultVfs::install(bool make_default) {
  if (!real_vfs) {
    real_vfs = sqlite3_vfs_find(nullptr);
    assert(real_vfs && real_vfs->iVersion >= 2);
    fault_vfs = *real_vfs;
    fault_vfs.zName = kName;
    fault_vfs.pNext = nullptr;
    fault_vfs.szOsFile = static_cast<int>(sizeof(FaultFile)) + real_vfs->szOsFile;
    fault_vfs.xOpen = x_open;
    std::memset(&fault_methods, 0, sizeof fault_methods);
    fault_methods.iVersion = 3;
    fault_methods.xClose = x_close;
    fault_methods.xRead = x_read;
    fault_methods.xWrite = x_write;
    fault_methods.xTruncate = x_truncate;
    fault_methods.xSync = x_sync;
    fault_methods.xFileSize = x_file_size;
    fault_methods.xLock = x_lock;
    fault_methods.xUnlock = x_unlock;
    fault_methods.xCheckReservedLock = x_check_reserved;
    fault_methods.xFileControl = x_file_control;
    fault_methods.xSectorSize = x_sector_size;
    fault_methods.xDeviceCharacteristics = x_device;
    fault_methods.xShmMap = x_shm_map;
    fault_methods.xShmLock = x_shm_lock;
    fault_methods.xShmBarrier = x_shm_barrier;
    fault_methods.xShmUnmap = x_shm_unmap;
    fault_methods.xFetch = x_fetch;
    fault_methods.xUnfetch = x_unfetch;
    sqlite3_vfs_register(&fault_vfs, make_default ? 1 : 0);
  } else if (make_default) {
    sqlite3_vfs_register(&fault_vfs, 1);
  }
}

void FaultVfs::arm(Mode mode, std::int64_t at, bool torn) {
  state.failing = false;
  state.count = 0;
  state.at = at;
  state.torn = torn;
  state.mode = mode;
}

void FaultVfs::arm_signal(int signo, std::int64_t at) {
  state.signo = signo;
  arm(Mode::signal, at);
}

void FaultVfs::fail_with_disk_full(bool full) { state.disk_full = full; }

void FaultVfs::disarm() {
  state.mode = Mode::count;
  state.failing = false;
  state.at = 0;
}

void FaultVfs::skip_syncs(bool skip) { state.skip_syncs = skip; }
std::int64_t FaultVfs::writes() { return state.count; }
bool FaultVfs::failing() { return state.failing; }

}  // namespace bb::ledger::testing
