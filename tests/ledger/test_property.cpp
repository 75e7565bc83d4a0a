int placeholder_test_property();
