/** The table DSL (API); LogUp and the program tables are the prover's and the examples'. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.air {
    requires transitive io.jstark.math;

    exports io.jstark.air;
    exports io.jstark.air.debug;
    exports io.jstark.air.expr;
    exports io.jstark.air.trace;
    exports io.jstark.air.logup to
            io.jstark.protocol,
            io.jstark.prover,
            io.jstark.examples,
            io.jstark.verifier;
    exports io.jstark.air.batch to
            io.jstark.bench;
    exports io.jstark.air.program to
            io.jstark.prover,
            io.jstark.examples,
            io.jstark.cluster,
            io.jstark.bench;
}
