int placeholder_test_crash();
