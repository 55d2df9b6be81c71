package io.jstark.crypto.lanes;

/** The vector kernels by hash name; only loaded where {@code jdk.incubator.vector} is. */
final class VectorKernels {
    private VectorKernels() {}

    /** The vector kernel of the hash called {@code name}, or null where there is none. */
    static LaneHasher of(String name) {
        return switch (name) {
            case "blake3" -> Blake3Lanes.INSTANCE;
            case "sha256" -> Sha256Lanes.INSTANCE;
            case "keccak256" -> Keccak256Lanes.INSTANCE;
            default -> null;
        };
    }

    /**
     * Calls every compile unit of the hash's vector kernel, and the shared shuffles, with no work (see
     * {@link LaneWarmUp}).
     */
    static void touch(String name) {
        switch (name) {
            case "blake3" -> Blake3Lanes.touch();
            case "sha256" -> Sha256Lanes.touch();
            case "keccak256" -> Keccak256Lanes.touch();
            default -> throw new IllegalArgumentException("no vector kernel for " + name);
        }
        LaneShuffles.touch();
    }

    /** The most per-thread scratch any vector kernel holds for messages of {@code messageBytes} bytes. */
    static long scratchBytes(long messageBytes) {
        return Math.max(
                Blake3Lanes.scratchBytes(messageBytes),
                Math.max(Sha256Lanes.scratchBytes(), Keccak256Lanes.scratchBytes()));
    }
}
