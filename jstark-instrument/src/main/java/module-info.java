/** Spans, timelines and byte sizes: the measuring the proving layers share; none of it is a user's API. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.instrument {
    requires java.management;
    requires jdk.management;
    requires jdk.jfr;

    exports io.jstark.instrument to
            io.jstark,
            io.jstark.math,
            io.jstark.crypto,
            io.jstark.fri,
            io.jstark.protocol,
            io.jstark.prover,
            io.jstark.verifier,
            io.jstark.storage,
            io.jstark.scheduler,
            io.jstark.examples,
            io.jstark.profile,
            io.jstark.cli,
            io.jstark.cluster;
}
