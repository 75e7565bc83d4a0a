#pragma once

namespace bb::ledger {

class Database;

// One write transaction. It takes the write lock at once (BEGIN IMMEDIATE), so that it never fails half-way
// for lack of the lock; unless commit() succeeds, the destructor rolls back, and it never throws.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Throws SqlError when the commit fails; the transaction is then rolled back.
  void commit();

 private:
  Database& db_;
  bool open_ = true;
};

}  // namespace bb::ledger
