/** The field, memory and parallel primitives (API); the NTT and polynomial kernels are the prover's and verifier's. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.math {
    requires transitive io.jstark.instrument;
    // GoldilocksVector (public in the exported field package) takes and returns LongVectors
    requires transitive jdk.incubator.vector;

    exports io.jstark.math.field;
    exports io.jstark.math.memory;
    exports io.jstark.math.parallel;
    exports io.jstark.math.ntt to
            io.jstark.air,
            io.jstark.fri,
            io.jstark.protocol,
            io.jstark.prover,
            io.jstark.verifier,
            io.jstark.storage,
            io.jstark.bench;
    exports io.jstark.math.poly to
            io.jstark.prover,
            io.jstark.examples;
}
