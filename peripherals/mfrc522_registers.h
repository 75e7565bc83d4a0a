#pragma once
#include <cstdint>
#include <span>

namespace bb::peripherals::mfrc522 {

// Registers, commands and ISO 14443-3 type A commands, as the NXP MFRC522 datasheet names them.
enum Register : std::uint8_t {
  CommandReg = 0x01,
  ComIEnReg = 0x02,
  ComIrqReg = 0x04,
  DivIrqReg = 0x05,
  ErrorReg = 0x06,
  Status2Reg = 0x08,
  FIFODataReg = 0x09,
  FIFOLevelReg = 0x0A,
  ControlReg = 0x0C,
  BitFramingReg = 0x0D,
  CollReg = 0x0E,
  ModeReg = 0x11,
  TxModeReg = 0x12,
  RxModeReg = 0x13,
  TxControlReg = 0x14,
  TxASKReg = 0x15,
  CRCResultRegH = 0x21,
  CRCResultRegL = 0x22,
  ModWidthReg = 0x24,
  TModeReg = 0x2A,
  TPrescalerReg = 0x2B,
  TReloadRegH = 0x2C,
  TReloadRegL = 0x2D,
  VersionReg = 0x37,
};
enum Command : std::uint8_t { Idle = 0x00, CalcCRC = 0x03, Transceive = 0x0C, SoftReset = 0x0F };

constexpr std::uint8_t kRxIrq = 0x20, kIdleIrq = 0x10, kErrIrq = 0x02, kTimerIrq = 0x01;  // ComIrqReg
constexpr std::uint8_t kCrcIrq = 0x04;                                                    // DivIrqReg
constexpr std::uint8_t kCollErr = 0x08, kFatalErrors = 0x13;                              // ErrorReg
constexpr std::uint8_t kStartSend = 0x80;                                                 // BitFramingReg

constexpr std::uint8_t kReqA = 0x26, kWupA = 0x52, kHltA = 0x50, kCascadeTag = 0x88;
constexpr std::uint8_t kSelect[3] = {0x93, 0x95, 0x97};
constexpr std::uint8_t kSakUidIncomplete = 0x04;

// ISO 14443-3 CRC_A (preset 0x6363), low byte first on the air.
inline std::uint16_t crc_a(std::span<const std::uint8_t> data) {
  std::uint32_t crc = 0x6363;
  for (std::uint8_t byte : data) {
    byte = static_cast<std::uint8_t>(byte ^ (crc & 0xFF));
    byte = static_cast<std::uint8_t>(byte ^ (byte << 4));
    crc = (crc >> 8) ^ (static_cast<std::uint32_t>(byte) << 8) ^ (static_cast<std::uint32_t>(byte) << 3) ^
          (static_cast<std::uint32_t>(byte) >> 4);
  }
  return static_cast<std::uint16_t>(crc);
}

}  // namespace bb::peripherals::mfrc522
