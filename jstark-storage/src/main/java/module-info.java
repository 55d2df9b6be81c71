/** Storage modes, plans and their refusals (API); the memory model is the facade's and the CLI's. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.storage {
    requires transitive io.jstark.prover;
    requires io.jstark.crypto;
    requires io.jstark.instrument;
    requires java.management;
    requires jdk.management;

    exports io.jstark.storage;
    exports io.jstark.storage.memory to io.jstark, io.jstark.examples, io.jstark.cli;
}
