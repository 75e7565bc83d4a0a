int placeholder_test_ledger();
