/** The prover; its execution and memory packages are for the storage, scheduler and facade modules above it. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.prover {
    requires transitive io.jstark.protocol;
    requires io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.prover;
    exports io.jstark.prover.exec to
            io.jstark.storage, io.jstark.scheduler, io.jstark, io.jstark.examples, io.jstark.cli;
    exports io.jstark.prover.memory to io.jstark.storage, io.jstark, io.jstark.examples, io.jstark.cli, io.jstark.cluster;
}
