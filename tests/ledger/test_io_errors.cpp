int placeholder_test_io_errors();
