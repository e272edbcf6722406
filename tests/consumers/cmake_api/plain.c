int plain_value(void) { return 1; }
