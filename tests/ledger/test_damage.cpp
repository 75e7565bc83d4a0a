int placeholder_test_damage();
