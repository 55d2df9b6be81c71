/** FRI; {@code FriKernels} is the seam a kernel backend implements. */
module io.jstark.fri {
    requires transitive io.jstark.math;
    requires io.jstark.crypto;
    requires io.jstark.instrument;

    exports io.jstark.fri;
}
