package io.jstark.examples.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.examples.backend.CountingKernels.Kernel;
import io.jstark.fri.FriParameters;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.PhaseTree;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.prover.CpuBackend;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CPU backend on kernels other than its own, chosen on the builder, makes the same proof bytes, and the
 * kernels receive every call the proof's structure predicts (the proving key's preprocessed commitment and the
 * aux-trace build, which evaluates the bus expressions itself, do not go through them).
 */
class BackendSeamTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 8, 4, 2, 2, "sha256", 0);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fib", "vm", "mix"})
    void delegatingKernelsGiveTheSameBytesAndSeeEveryKernelCall(String name) throws Exception {
        Example example = Examples.byName(name);
        CountingKernels counting = new CountingKernels();
        try (Workload w = example.generate(example.minLogSize() + 1, 13);
                JstarkProver cpu =
                        Jstark.prover(example.airs()).options(OPTIONS).build();
                JstarkProver other = Jstark.prover(example.airs())
                        .options(OPTIONS)
                        .backend(new CpuBackend(counting))
                        .build()) {
            byte[] reference = cpu.prove(w.tables()).bytes();
            byte[] bytes = other.prove(w.tables()).bytes();
            assertThat(bytes).isEqualTo(reference);
            Jstark.verify(other.verifyingKey(), Statement.ofTraces(w.tables()), bytes);
            assertThat(counting.counts()).isEqualTo(expected(w.tables()));
            assertThat(counting.counts().values()).allMatch(c -> c > 0);
        }
    }

    private static FriParameters fri() {
        return OPTIONS.friParameters();
    }

    /** Per table: trace LDEs, its trees, composition, OOD, DEEP; then the phase trees' class steps and the one FRI of the tallest height. */
    private static Map<Kernel, Long> expected(List<TableTrace> tables) {
        Map<Kernel, Long> k = new EnumMap<>(Kernel.class);
        for (Kernel kernel : Kernel.values()) {
            k.put(kernel, 0L);
        }
        for (TableTrace t : tables) {
            Air air = t.air();
            int aux = air.auxWidth() > 0 ? 1 : 0;
            int ldes = (air.preprocessedWidth() > 0 ? 1 : 0) + 1 + aux;
            add(k, Kernel.EXTEND, 1 + aux); // main LDE, aux LDE
            add(k, Kernel.COMMIT_ROWS, 1 + aux + 1); // main, aux and composition trees
            add(k, Kernel.EVALUATE_CONSTRAINTS, 1);
            add(k, Kernel.INTERPOLATE_COSET, 2); // composition parts, DEEP polynomial
            add(k, Kernel.EXTEND_COEFFICIENTS, 1); // composition parts' LDE
            add(k, Kernel.EVALUATE_COLUMNS, 2 * ldes + 1); // each trace LDE at z and z*w, composition at z
            add(k, Kernel.COMBINE_DEEP, 1);
        }
        int[] heights = new int[tables.size()];
        for (int i = 0; i < heights.length; i++) {
            heights[i] = tables.get(i).logHeight();
        }
        LiftedDomain domain = LiftedDomain.of(OPTIONS, heights);
        add(k, Kernel.COMMIT_ROWS, phaseTreeSteps(domain, tables, i -> true));
        add(
                k,
                Kernel.COMMIT_ROWS,
                phaseTreeSteps(domain, tables, i -> tables.get(i).air().auxWidth() > 0));
        add(k, Kernel.COMMIT_ROWS, phaseTreeSteps(domain, tables, i -> true));
        // the FRI: each fold, and each committed layer's LDE and tree
        int logDegree = domain.logMaxHeight();
        add(k, Kernel.FOLD_COEFFICIENTS, fri().foldCount(logDegree));
        add(k, Kernel.EXTEND_COEFFICIENTS, fri().committedLayers(logDegree));
        add(k, Kernel.COMMIT_ROWS, fri().committedLayers(logDegree));
        return k;
    }

    /** A phase of one table is that table's tree; of more, one tree per class of block counts. */
    private static int phaseTreeSteps(LiftedDomain domain, List<TableTrace> tables, IntPredicate member) {
        List<Integer> members = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            if (member.test(i)) {
                members.add(i);
            }
        }
        if (members.isEmpty()) {
            return 0;
        }
        PhaseTree tree = new PhaseTree(
                domain, members.stream().mapToInt(Integer::intValue).toArray());
        return tree.single() ? 0 : tree.classes().size();
    }

    private static void add(Map<Kernel, Long> k, Kernel kernel, long calls) {
        k.merge(kernel, calls, Long::sum);
    }
}
