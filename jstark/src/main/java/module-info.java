/** The facade: a user's one dependency, reading every module of the API. */
module io.jstark {
    requires transitive io.jstark.math;
    requires transitive io.jstark.air;
    requires transitive io.jstark.protocol;
    requires transitive io.jstark.prover;
    requires transitive io.jstark.verifier;
    requires transitive io.jstark.storage;
    requires transitive io.jstark.scheduler;
    requires io.jstark.instrument;

    exports io.jstark;
}
