/** FRI; {@code FriKernels} is the seam a kernel backend implements. */
module io.jstark.fri {
    requires transitive io.jstark.math;
    // FriKernels and the FRI rounds name the Merkle tree, the hash and the transcript
    requires transitive io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.fri;
}
