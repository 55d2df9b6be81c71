/** The user's project as a module: its tests run on the module path, reading the API through io.jstark alone. */
module example.prove {
    requires io.jstark;
}
