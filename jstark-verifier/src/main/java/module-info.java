/** The verifier: all a service that only verifies needs. */
module io.jstark.verifier {
    requires transitive io.jstark.protocol;
    requires io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.verifier;
}
