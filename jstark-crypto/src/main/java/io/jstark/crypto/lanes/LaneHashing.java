package io.jstark.crypto.lanes;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which {@link LaneHasher} hashes a hash's Merkle trees: chosen once per JVM from the CPU (the preferred
 * vector species), the loaded modules and {@code -Djstark.crypto.lanes}.
 *
 * <p><b>The choice.</b> A hash gets its vector kernel when {@code jdk.incubator.vector} is loaded and
 * vectors are wide enough for the kernel to beat the scalar code on measurement (see
 * {@link #minimumLanes}); otherwise its scalar kernel. The digests are the same either way, so proof
 * bytes never depend on the choice.
 *
 * <p><b>The cold path.</b> Until C2 has compiled it, a vector kernel runs hundreds of times slower than
 * scalar code (every lane operation allocates). So in {@code auto} mode a hash whose vector kernel is
 * chosen still hashes with its scalar kernel until {@link LaneWarmUp} has seen the vector kernel run
 * without allocating (compiled, every operation intrinsified), which a background thread brings about
 * in under a second once {@link #prepare} is called with enough work ahead. A proof started in a fresh
 * JVM thus starts at scalar speed and its trees switch to the lanes once they are compiled; what the
 * lanes cost it is the warm-up thread's CPU (measured: about 0.15 s for BLAKE3) and the compiler's.
 */
public final class LaneHashing {
    /**
     * {@code -Djstark.crypto.lanes=auto|vector|scalar}: {@code auto} (default) as described above;
     * {@code vector} uses every available vector kernel at once, compiled or not (tests, benchmarks);
     * {@code scalar} never uses one.
     */
    public static final String PROPERTY = "jstark.crypto.lanes";
    /**
     * Work below this many bytes to hash does not start a warm-up: the warm-up and the compile cost a few
     * hundred milliseconds of CPU, which the smallest proofs would never earn back. Measured with cold
     * {@code jstark prove --example vm} (9.7 MB of main trace LDE, 24 trees): from 4 MiB the warm-up starts and
     * 20 to 24 of its trees hash in lanes (Merkle 0.4-0.8 s against 0.65-1.6 s without).
     */
    public static final long WARM_UP_MIN_BYTES = 4L << 20;

    enum Mode {
        AUTO,
        VECTOR,
        SCALAR
    }

    /**
     * The choice, made on first use and not when the class loads: a verifier that only asks which leaves a
     * proof opens never loads the kernels, and a bad setting is refused, naming it, at every use instead of
     * failing the class for the rest of the JVM's life.
     */
    private static final class Chosen {
        static final InvalidLanesSettingException PROBLEM;
        static final Map<String, Choice> CHOICES;
        static final int MAX_LANES;

        static {
            InvalidLanesSettingException problem = null;
            Map<String, Choice> choices = Map.of();
            try {
                choices = choices(mode(System.getProperty(PROPERTY, "auto")));
            } catch (InvalidLanesSettingException e) {
                problem = e;
            }
            PROBLEM = problem;
            CHOICES = choices;
            MAX_LANES = maxLanes(choices);
        }
    }

    /**
     * The most lanes of any vector kernel in this JVM (a power of two, 1 where there is none): buffers sized
     * in whole passes of this many messages fit every kernel's layout.
     */
    public static int maxLanes() {
        checkSetting();
        return Chosen.MAX_LANES;
    }

    private static void checkSetting() {
        if (Chosen.PROBLEM != null) {
            throw new InvalidLanesSettingException(Chosen.PROBLEM.getMessage());
        }
    }

    private LaneHashing() {}

    static Mode mode(String setting) {
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> Mode.AUTO;
            case "vector" -> Mode.VECTOR;
            case "scalar" -> Mode.SCALAR;
            default ->
                throw new InvalidLanesSettingException(
                        "-D" + PROPERTY + " must be auto, vector or scalar, got '" + setting + "'");
        };
    }

    /**
     * What one hash runs: its scalar kernel, its vector kernel where this JVM has one ({@code available}),
     * that kernel again where it is chosen ({@code vector}, else null), and why.
     */
    private record Choice(
            LaneHasher scalar, LaneHasher available, LaneHasher vector, LaneWarmUp warmUp, String reason) {}

    private static Map<String, Choice> choices(Mode mode) {
        boolean vectorModule =
                ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        if (mode == Mode.VECTOR && !vectorModule) {
            throw new InvalidLanesSettingException(
                    "-D" + PROPERTY + "=vector but module jdk.incubator.vector is not loaded "
                            + "(add --add-modules jdk.incubator.vector)");
        }
        Map<String, Choice> choices = new HashMap<>();
        for (Hasher hasher : Hashers.all()) {
            // BLAKE3 has a scalar kernel of its own on the layout's words; the others go through their digesters
            LaneHasher scalar = hasher.name().equals("blake3") ? Blake3Scalar.INSTANCE : new ScalarLanes(hasher);
            LaneHasher candidate = vectorModule ? VectorKernels.of(hasher.name()) : null;
            String reason;
            LaneHasher vector = null;
            if (mode == Mode.SCALAR) {
                reason = PROPERTY + "=scalar";
            } else if (!vectorModule) {
                reason = "module jdk.incubator.vector is not loaded";
            } else {
                if (candidate == null) {
                    reason = "no vector kernel for " + hasher.name();
                } else if (mode == Mode.AUTO && candidate.lanes() < minimumLanes(hasher.name())) {
                    reason = "its vector kernel has " + candidate.lanes()
                            + " lanes here and beats the scalar code from " + minimumLanes(hasher.name());
                } else {
                    vector = candidate;
                    reason = mode == Mode.VECTOR ? PROPERTY + "=vector" : "";
                }
            }
            LaneWarmUp warmUp = vector != null && mode == Mode.AUTO ? new LaneWarmUp(vector) : null;
            choices.put(hasher.name(), new Choice(scalar, candidate, vector, warmUp, reason));
        }
        return Map.copyOf(choices);
    }

    private static int maxLanes(Map<String, Choice> choices) {
        int lanes = 1;
        for (Choice choice : choices.values()) {
            if (choice.available() != null) {
                lanes = Math.max(lanes, choice.available().lanes());
            }
        }
        return lanes;
    }

    /**
     * Heap bytes of per-thread scratch that the kernels of one thread may hold for messages of
     * {@code messageBytes} bytes (a thread may use a scalar and a vector kernel).
     */
    public static long scratchBytes(long messageBytes) {
        long bytes = Math.max(ScalarLanes.scratchBytes(messageBytes), Blake3Kernel.scratchBytes(messageBytes, 1));
        if (maxLanes() > 1) {
            bytes += VectorKernels.scratchBytes(messageBytes);
        }
        return bytes;
    }

    /**
     * Lanes a kernel needs to beat the scalar code, measured here with AVX-512 and with {@code -XX:UseAVX=2}:
     * BLAKE3 in 8 lanes (AVX2) is still several times BouncyCastle's; SHA-256 beats SHA-NI only in 16 lanes,
     * and Keccak-256 beats BouncyCastle only in 8 lanes of 64 bits (AVX-512).
     */
    static int minimumLanes(String hash) {
        return switch (hash) {
            case "sha256" -> 16;
            default -> 8;
        };
    }

    private static Choice choice(Hasher hasher) {
        checkSetting();
        Choice choice = Chosen.CHOICES.get(hasher.name());
        if (choice == null) {
            throw new IllegalArgumentException("no lane kernels for hash '" + hasher.name() + "'");
        }
        return choice;
    }

    /** The kernel to hash with now: the vector kernel once it is chosen and (in auto mode) compiled. */
    public static LaneHasher kernel(Hasher hasher) {
        Choice choice = choice(hasher);
        if (choice.vector() == null
                || (choice.warmUp() != null && !choice.warmUp().ready())) {
            return choice.scalar();
        }
        return choice.vector();
    }

    /** The scalar kernel of a hash (what the vector kernels are tested against). */
    public static LaneHasher scalar(Hasher hasher) {
        return choice(hasher).scalar();
    }

    /**
     * The vector kernel of a hash in this JVM (where {@code jdk.incubator.vector} is loaded and the hash has
     * one), whether or not {@link #kernel} chooses it: what tests and benchmarks compare with the scalar one.
     */
    public static Optional<LaneHasher> vector(Hasher hasher) {
        return Optional.ofNullable(choice(hasher).available());
    }

    /**
     * Tells the lanes that about {@code bytes} bytes are about to be hashed with {@code hasher}: in auto mode
     * and from {@link #WARM_UP_MIN_BYTES}, starts compiling the vector kernel in the background if nothing has
     * yet. Cheap and idempotent; callers call it before their work, as early as they know its size.
     */
    public static void prepare(Hasher hasher, long bytes) {
        LaneWarmUp warmUp = choice(hasher).warmUp();
        if (warmUp != null && bytes >= WARM_UP_MIN_BYTES) {
            warmUp.start();
        }
    }

    /** Blocks until a started warm-up has finished (for tests and benchmarks); false if none was started. */
    public static boolean awaitWarmUp(Hasher hasher) throws InterruptedException {
        LaneWarmUp warmUp = choice(hasher).warmUp();
        return warmUp != null && warmUp.await();
    }

    /**
     * One line for reports: the kernel chosen for {@code hasher}, and where it is not yet (or never) in use, why.
     * e.g. {@code "blake3: 16 lanes x 32 bits (Vector API, 512-bit vectors)"}.
     */
    public static String describe(Hasher hasher) {
        Choice choice = choice(hasher);
        if (choice.vector() == null) {
            return choice.scalar().description() + " (" + choice.reason() + ")";
        }
        if (choice.warmUp() == null) {
            return choice.vector().description() + " (" + choice.reason() + ")";
        }
        return choice.vector().description() + "; " + choice.warmUp().state();
    }
}
