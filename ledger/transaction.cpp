#include "ledger/transaction.h"

#include "ledger/database.h"

namespace bb::ledger {

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!open_) return;
  // After some I/O errors SQLite has already rolled back by itself; a second ROLLBACK would only fail.
  if (!db_.in_transaction()) return;
  try {
    db_.exec("ROLLBACK");
  } catch (...) {
    // Nothing more can be done here: SQLite discards the uncommitted WAL frames or hot journal at the next
    // open.
  }
}

void Transaction::commit() {
  open_ = false;
  try {
    db_.exec("COMMIT");
  } catch (...) {
    if (db_.in_transaction()) {
      try {
        db_.exec("ROLLBACK");
      } catch (...) {
      }
    }
    throw;
  }
}

}  // namespace bb::ledger
