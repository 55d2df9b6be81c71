/**
 * Hashes, Merkle trees and the Fiat-Shamir transcript: the types the backend seam names (a kernel backend builds Merkle
 * trees over the proof's hash and runs rounds on the transcript), exported; the lane kernels are the modules' own.
 */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.crypto {
    requires io.jstark.instrument;
    // the Merkle tree and the transcript take matrices, allocators, worker pools and extension elements
    requires transitive io.jstark.math;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;
    requires org.bouncycastle.provider;

    exports io.jstark.crypto.hash;
    exports io.jstark.crypto.lanes to
            io.jstark.prover,
            io.jstark.examples,
            io.jstark.cli,
            io.jstark.bench;
    exports io.jstark.crypto.merkle;
    exports io.jstark.crypto.transcript;
}
