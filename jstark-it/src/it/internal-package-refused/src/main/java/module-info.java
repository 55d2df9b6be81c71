module example.internals {
    requires io.jstark;
}
