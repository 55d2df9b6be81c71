/** The user's project as a module: its tests run on the module path, reading the API through io.jstark.verifier alone. */
module example.verify {
    requires io.jstark.verifier;
}
