/** What prover and verifier agree on: options, statements, keys, proofs and their format. */
module io.jstark.protocol {
    requires transitive io.jstark.air;
    requires transitive io.jstark.fri;
    requires transitive io.jstark.math;
    requires io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.protocol;
}
