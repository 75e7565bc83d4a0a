int placeholder_test_idempotency();
