/** Storage modes, plans and their refusals, and the memory model whose predictions and measurements they carry. */
module io.jstark.storage {
    requires transitive io.jstark.prover;
    requires io.jstark.crypto;
    requires io.jstark.instrument;
    requires java.management;
    requires jdk.management;

    exports io.jstark.storage;
    exports io.jstark.storage.memory;
}
