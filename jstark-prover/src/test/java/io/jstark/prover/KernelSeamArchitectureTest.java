package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The seams, read from this module's compiled classes with the JDK's class-file API (calls, field reads and
 * method references in lambdas): no prover class but {@link CpuKernels} calls a kernel entry point (NTT/LDE,
 * Merkle row hashing, constraint evaluation, DEEP field kernels, FRI folding, out-of-domain evaluation), so the
 * CPU backend's kernels go through {@link HostKernels}; and no class outside the CPU backend uses the CPU
 * backend's insides (its kernels, its per-table prover, its host commitments), so the prover reaches a table's
 * data only through {@link ProverBackend}'s session and handles: the aux-trace build, the barycentric weights, the
 * DEEP division and grinding are the CPU backend's too. It reads this module only: the preprocessed commitment the
 * proving key makes (jstark-protocol's, public and computed once per key) is outside its reach, as docs/design.md says.
 */
class KernelSeamArchitectureTest {
    private static final String BACKEND = "io/jstark/prover/CpuKernels";
    /** The CPU backend: the only classes that may use its kernels, its per-table prover and its host commitments. */
    private static final List<String> CPU_BACKEND = List.of(
            "CpuBackend",
            "CpuProofSession",
            "PlacedTableSession",
            "TableProver",
            "TableCommitter",
            "CompositionRound",
            "OodOpening",
            "HostCommitment",
            "AuxCommitment",
            "DeepQuotient",
            "CpuKernels",
            "HostKernels",
            "LdeBatchSource",
            "LdeDomain",
            "TableBuffers",
            "BufferDescription",
            "FriBuffers",
            "MemoryEstimates");

    /** A kernel entry point: an owner class (internal name), which of its members count, and the classes that may use them. */
    record EntryPoint(String owner, Predicate<String> member, String what, Predicate<String> allowedIn) {
        EntryPoint(String owner, Predicate<String> member, String what) {
            this(owner, member, what, EntryPoint::inCpuBackend);
        }

        boolean matches(String owner, String name, String descriptor) {
            return this.owner.equals(owner) && member.test(name + descriptor);
        }

        static boolean inCpuBackend(String caller) {
            return caller.equals(BACKEND) || caller.startsWith(BACKEND + "$");
        }

        static boolean inCpuBackendClasses(String caller) {
            String simple = caller.substring(caller.lastIndexOf('/') + 1);
            int nested = simple.indexOf('$');
            return caller.startsWith("io/jstark/prover/")
                    && CPU_BACKEND.contains(nested < 0 ? simple : simple.substring(0, nested));
        }
    }

    static final List<EntryPoint> KERNELS = List.of(
            new EntryPoint(
                    "io/jstark/math/ntt/Lde",
                    m -> m.startsWith("extend(")
                            || m.startsWith("extendCoefficients(")
                            || m.startsWith("interpolateCoset("),
                    "LDE / interpolation"),
            new EntryPoint("io/jstark/math/ntt/Ntt", m -> true, "NTT"),
            new EntryPoint("io/jstark/crypto/merkle/MerkleTree", m -> m.startsWith("commit("), "Merkle row hashing"),
            new EntryPoint(
                    "io/jstark/air/program/ConstraintProgram$Bound",
                    m -> m.startsWith("evaluate("),
                    "constraint evaluation"),
            new EntryPoint("io/jstark/math/field/FieldKernels", m -> true, "field vector kernels"),
            new EntryPoint("io/jstark/math/field/ExtKernels", m -> true, "extension vector kernels (DEEP combination)"),
            new EntryPoint(
                    "io/jstark/math/poly/Barycentric", m -> m.startsWith("evaluate"), "out-of-domain evaluation"),
            // the overload that takes no kernels runs FRI on the CPU's; so does FriKernels.CPU
            new EntryPoint(
                    "io/jstark/fri/FriProver",
                    m -> m.startsWith("commit(") && !m.contains("Lio/jstark/fri/FriKernels;)"),
                    "FRI folding without the backend"),
            new EntryPoint("io/jstark/fri/FriKernels", m -> m.startsWith("CPU"), "FRI's CPU kernels"),
            // the CPU kernels named instead of the backend's own would bypass the kernels it was given
            new EntryPoint(
                    BACKEND,
                    m -> true,
                    "the CPU kernels instead of the backend's",
                    c -> EntryPoint.inCpuBackend(c)
                            || c.equals("io/jstark/prover/HostKernels")
                            || c.equals("io/jstark/prover/CpuBackend")),
            new EntryPoint(
                    "io/jstark/prover/HostKernels",
                    m -> m.startsWith("cpu("),
                    "the CPU kernels instead of the backend's",
                    c -> c.equals("io/jstark/prover/CpuBackend")),
            // the CPU backend named instead of the settings' backend would bypass a chosen one
            new EntryPoint(
                    "io/jstark/prover/CpuBackend",
                    m -> m.startsWith("DEFAULT") || m.startsWith("<init>"),
                    "the CPU backend instead of the chosen one",
                    c -> c.equals("io/jstark/prover/CpuBackend") || c.equals("io/jstark/prover/ProverBackend")),
            new EntryPoint(
                    "io/jstark/prover/ProverBackend",
                    m -> m.startsWith("cpu("),
                    "the CPU backend instead of the chosen one",
                    c -> c.equals("io/jstark/prover/ProverSettings")),
            // the prover reaches a table's data through the session's handles only
            new EntryPoint(
                    "io/jstark/prover/HostKernels",
                    m -> !m.startsWith("cpu("),
                    "the CPU backend's kernels outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/TableProver",
                    m -> true,
                    "the CPU backend's per-table prover outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/TableCommitter",
                    m -> true,
                    "the CPU backend's per-table commitments outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/CompositionRound",
                    m -> true,
                    "the CPU backend's per-table round 2 outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/OodOpening",
                    m -> true,
                    "the CPU backend's per-table round 3 outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/HostCommitment",
                    m -> true,
                    "a host commitment's insides outside the CPU backend",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/CpuProofSession",
                    m -> true,
                    "the CPU backend's session outside it",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/prover/DeepQuotient",
                    m -> true,
                    "the DEEP division outside the CPU backend",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/air/logup/AuxTraceBuilder",
                    m -> m.startsWith("build("),
                    "the aux-trace build outside the CPU backend",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/math/poly/Barycentric",
                    m -> m.startsWith("forCoset("),
                    "barycentric weights outside the CPU backend",
                    EntryPoint::inCpuBackendClasses),
            new EntryPoint(
                    "io/jstark/crypto/transcript/Transcript",
                    m -> m.startsWith("grind("),
                    "grinding outside the backend",
                    EntryPoint::inCpuBackendClasses));

    @Test
    void onlyTheCpuBackendCallsKernels() throws Exception {
        Path classes = classesOf(CpuBackend.class);
        List<String> bypasses = violations(classes);
        assertThat(bypasses)
                .as("kernel calls outside %s in %s", BACKEND, classes)
                .isEmpty();
        // the scan saw the prover: the backend's own calls are found (and allowed); its trees, layer LDEs and folds are
        // FRI's CPU kernels
        assertThat(calls(classes, BACKEND::equals, true))
                .anyMatch(c -> c.contains("Lde.extend("))
                .anyMatch(c -> c.contains("ConstraintProgram$Bound.evaluate("))
                .anyMatch(c -> c.contains("ExtKernels.addScaledBase("))
                .anyMatch(c -> c.contains("Barycentric.evaluate"))
                .anyMatch(c -> c.contains("FriKernels.CPU"));
    }

    @Test
    void aDirectKernelCallIsFound() throws Exception {
        // the fixture calls Lde.extend, MerkleTree.commit and FRI without the backend, a field kernel in a lambda, the
        // CPU kernels by
        // name (their field and a method: two uses), the default kernels and a host kernel outside the backend, and a
        // host
        // commitment's LDE; grinding, the aux build, the barycentric weights, the DEEP division and the CPU session
        // outside the backend
        List<String> found = violations(classesOf(KernelBypassFixture.class));
        assertThat(found)
                .filteredOn(v -> v.startsWith("io/jstark/prover/KernelBypassFixture"))
                .hasSize(14)
                .anyMatch(v -> v.contains("Transcript.grind("))
                .anyMatch(v -> v.contains("AuxTraceBuilder.build("))
                .anyMatch(v -> v.contains("Barycentric.forCoset("))
                .anyMatch(v -> v.contains("DeepQuotient."))
                .anyMatch(v -> v.contains("CpuProofSession."))
                .anyMatch(v -> v.contains("Lde.extend("))
                .anyMatch(v -> v.contains("MerkleTree.commit("))
                .anyMatch(v -> v.contains("FriProver.commit("))
                .anyMatch(v -> v.contains("FieldKernels.add("))
                .anyMatch(v -> v.contains("CpuKernels.INSTANCE"))
                .anyMatch(v -> v.contains("CpuKernels.extend("))
                .anyMatch(v -> v.contains("HostKernels.cpu("))
                .anyMatch(v -> v.contains("HostKernels.extend("))
                .anyMatch(v -> v.contains("HostCommitment.lde("));
    }

    /** Every kernel use under {@code root} by a class its entry point does not allow, as "class.method -> owner.member (what)". */
    static List<String> violations(Path root) throws IOException {
        return calls(root, owner -> true, false);
    }

    /** Kernel uses by the classes {@code ofClass} accepts: all of them, or only those their entry point does not allow. */
    private static List<String> calls(Path root, Predicate<String> ofClass, boolean allowedToo) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(Files.readAllBytes(file));
                String owner = model.thisClass().asInternalName();
                if (ofClass.test(owner)) {
                    for (MethodModel method : model.methods()) {
                        method.code().ifPresent(code -> {
                            for (CodeElement e : code) {
                                check(owner, method.methodName().stringValue(), e, allowedToo, out);
                            }
                        });
                    }
                }
            }
        }
        return out;
    }

    private static void check(String caller, String method, CodeElement e, boolean allowedToo, List<String> out) {
        switch (e) {
            case InvokeInstruction i ->
                record(
                        caller,
                        method,
                        i.owner().asInternalName(),
                        i.name().stringValue(),
                        i.type().stringValue(),
                        allowedToo,
                        out);
            case FieldInstruction f ->
                record(
                        caller,
                        method,
                        f.owner().asInternalName(),
                        f.name().stringValue(),
                        f.type().stringValue(),
                        allowedToo,
                        out);
            case InvokeDynamicInstruction d -> {
                for (ConstantDesc arg : d.bootstrapArgs()) {
                    if (arg instanceof DirectMethodHandleDesc h) {
                        String owner = h.owner().descriptorString();
                        record(
                                caller,
                                method,
                                owner.substring(1, owner.length() - 1),
                                h.methodName(),
                                h.lookupDescriptor(),
                                allowedToo,
                                out);
                    }
                }
            }
            default -> {}
        }
    }

    private static void record(
            String caller,
            String method,
            String owner,
            String name,
            String descriptor,
            boolean allowedToo,
            List<String> out) {
        for (EntryPoint k : KERNELS) {
            if (k.matches(owner, name, descriptor)
                    && (allowedToo || !k.allowedIn().test(caller))) {
                out.add(caller + "." + method + " -> " + owner.substring(owner.lastIndexOf('/') + 1) + "." + name
                        + descriptor + " (" + k.what() + ")");
            }
        }
    }

    private static Path classesOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
