/** Hashes, lanes, Merkle trees and the transcript: machinery of the modules above, none of it a user's API. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.crypto {
    requires io.jstark.instrument;
    requires io.jstark.math;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;
    requires org.bouncycastle.provider;

    exports io.jstark.crypto.hash to
            io.jstark.fri, io.jstark.protocol, io.jstark.prover, io.jstark.verifier, io.jstark.examples, io.jstark.cli,
            io.jstark.bench, io.jstark.cluster;
    exports io.jstark.crypto.lanes to io.jstark.prover, io.jstark.examples, io.jstark.cli, io.jstark.bench;
    exports io.jstark.crypto.merkle to
            io.jstark.fri, io.jstark.protocol, io.jstark.prover, io.jstark.verifier, io.jstark.storage,
            io.jstark.examples, io.jstark.bench, io.jstark.cluster;
    exports io.jstark.crypto.transcript to
            io.jstark.fri, io.jstark.protocol, io.jstark.prover, io.jstark.verifier, io.jstark.examples, io.jstark.cluster;
}
