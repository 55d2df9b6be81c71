package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProver;
import io.jstark.instrument.Phases;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.prover.exec.TableTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * The prover's phases after the prepass: every per-table step of {@link TableProver} runs as a pass over all
 * tables (k at once under the memory gate, as the executor schedules them), and between the passes the
 * global steps run on the calling thread, each its own phase using the worker pool inside:
 *
 * <ol>
 *   <li>{@code main_commit}: per table, main LDE and its tree of blocks;</li>
 *   <li>{@code main_tree}: the main phase tree; absorb its root, sample the lookup challenges;</li>
 *   <li>{@code aux}: per table with buses, the LogUp trace, its LDE and tree, the bus sum;</li>
 *   <li>{@code aux_tree}: the aux phase tree; absorb it and the bus sums, sample alpha;</li>
 *   <li>{@code composition}: per table, its composition parts, extended and committed;</li>
 *   <li>{@code composition_tree}: the composition phase tree; absorb it, sample zeta;</li>
 *   <li>{@code ood}: per table, its frame at zeta^(2^s_j);</li>
 *   <li>{@code deep}: absorb the frames, sample gamma and mu; per table its DEEP polynomial;</li>
 *   <li>{@code fri}: the lifted sum of the tables' DEEP polynomials, one FRI, grinding, the query cosets;</li>
 *   <li>{@code queries}: open every phase tree, the pinned preprocessed trees and FRI.</li>
 * </ol>
 *
 * Everything the query phase reads (every table's LDEs and trees) lives until the proof is assembled;
 * {@link #close} releases whatever a failure left.
 */
final class BatchedOpening implements AutoCloseable {
    static final String MAIN_TREE = "main_tree";
    static final String AUX_COMMIT = "aux";
    static final String AUX_TREE = "aux_tree";
    static final String COMPOSITION = "composition";
    static final String COMPOSITION_TREE = "composition_tree";
    static final String OOD = "ood";
    static final String DEEP = "deep";
    static final String FRI = "fri";

    private final LiftedDomain domain;
    private final List<TableTrace> traces;
    private final List<TableProver> provers;
    private final List<Preprocessing.Committed> preprocessed;
    private final ProofOptions options;
    private final ProverSettings settings;
    private final Hasher hasher;
    private final int count;
    private final AtomicReferenceArray<MainCommitment> mains;
    private final AtomicReferenceArray<AuxCommitment> auxes;
    private final AtomicReferenceArray<CompositionCommitment> compositions;
    private final AtomicReferenceArray<Matrix> deeps;
    private final List<AutoCloseable> global = new ArrayList<>();

    BatchedOpening(LiftedDomain domain, List<TableTrace> traces, List<TableProver> provers, List<Preprocessing.Committed> preprocessed,
            ProofOptions options, ProverSettings settings, Hasher hasher) {
        this.domain = domain;
        this.traces = traces;
        this.provers = provers;
        this.preprocessed = preprocessed;
        this.options = options;
        this.settings = settings;
        this.hasher = hasher;
        this.count = traces.size();
        this.mains = new AtomicReferenceArray<>(count);
        this.auxes = new AtomicReferenceArray<>(count);
        this.compositions = new AtomicReferenceArray<>(count);
        this.deeps = new AtomicReferenceArray<>(count);
    }

    Proof prove(Phases phases, Transcript t) {
        phases.next(SpanLabels.MAIN_COMMIT);
        pass(SpanLabels.MAIN_COMMIT, estimate(TableBuffers.Pass.MAIN_COMMIT), (i, control) -> {
            mains.set(i, provers.get(i).commitMain(control));
        });
        phases.next(MAIN_TREE);
        PhaseCommitment mainTree = phaseTree("main", i -> mains.get(i).tree());
        byte[] mainRoot = mainTree.root();
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, mainRoot);

        boolean anyAux = false;
        for (TableTrace trace : traces) {
            anyAux |= trace.air().auxWidth() > 0;
        }
        phases.next(AUX_COMMIT);
        pass(AUX_COMMIT, estimate(TableBuffers.Pass.AUX), (i, control) -> {
            auxes.set(i, provers.get(i).commitAux(mains.get(i), lookup));
        });
        phases.next(AUX_TREE);
        PhaseCommitment auxTree = null;
        List<Ext3> busSums = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            busSums.add(auxes.get(i) == null ? null : auxes.get(i).busSum());
        }
        if (anyAux) {
            auxTree = phaseTree("aux", i -> auxes.get(i) == null ? null : auxes.get(i).tree());
            ProofTranscript.absorbAux(t, auxTree.root(), busSums);
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);

        phases.next(COMPOSITION);
        pass(COMPOSITION, estimate(TableBuffers.Pass.COMPOSITION), (i, control) -> {
            compositions.set(i, provers.get(i).commitComposition(mains.get(i), auxes.get(i), lookup, alpha));
        });
        phases.next(COMPOSITION_TREE);
        PhaseCommitment compositionTree = phaseTree("composition", i -> compositions.get(i).tree());
        ProofTranscript.absorbCompositionRoot(t, compositionTree.root());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);

        phases.next(OOD);
        OodFrame[] frames = new OodFrame[count];
        pass(OOD, estimate(TableBuffers.Pass.OOD), (i, control) -> {
            frames[i] = provers.get(i).openOod(mains.get(i), auxes.get(i), compositions.get(i), domain.pointFor(i, z));
        });
        phases.next(DEEP);
        ProofTranscript.absorbOodFrames(t, Arrays.asList(frames));
        Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
        pass(DEEP, estimate(TableBuffers.Pass.DEEP), (i, control) -> {
            deeps.set(i, provers.get(i).deepCoefficients(mains.get(i), auxes.get(i), compositions.get(i), frames[i], deepChallenges[0],
                    domain.pointFor(i, z)));
        });

        phases.next(FRI);
        FriProver fri;
        try (Matrix lifted = liftedSum(deepChallenges[1])) {
            fri = FriProver.commit("lifted", lifted, Preprocessing.shift(domain.logLde()), options.logBlowup(),
                    new FriParameters(options.logFoldingFactor(), options.logFinalDegree()), t, hasher, settings.pool(), allocator(MatrixRole.FRI_LAYER),
                    settings.backend());
            global.add(fri);
        }
        long nonce;
        try (Span _ = Spans.open(SpanLabels.GRINDING, "bits", options.grindingBits())) {
            nonce = t.grind(options.grindingBits(), settings.pool());
        }
        int[] queries = ProofTranscript.sampleQueries(t, options.queries(), domain);

        phases.next(SpanLabels.QUERIES, "queries", queries.length);
        List<Proof.TreeOpening> preOpenings = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Preprocessing.Committed pre = preprocessed.get(i);
            if (pre == null) {
                preOpenings.add(null);
                continue;
            }
            int[] leaves = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                leaves[q] = domain.preprocessedLeaf(i, queries[q]);
            }
            preOpenings.add(TableProver.opening(pre.tree(), MerkleTree.openedLeaves(leaves)));
        }
        Proof.PhaseOpening mainOpening = mainTree.open(queries);
        Proof.PhaseOpening auxOpening = auxTree == null ? null : auxTree.open(queries);
        Proof.PhaseOpening compositionOpening = compositionTree.open(queries);
        List<Proof.TableHeader> headers = new ArrayList<>(count);
        List<OodFrame> frameList = Arrays.asList(frames);
        for (int i = 0; i < count; i++) {
            TableTrace trace = traces.get(i);
            Preprocessing.Committed pre = preprocessed.get(i);
            headers.add(new Proof.TableHeader(trace.name(), trace.air().name(), trace.logHeight(), trace.publicInputs(),
                    pre == null ? null : pre.tree().root()));
        }
        return new Proof(options, headers, mainRoot, auxTree == null ? null : auxTree.root(), busSums, compositionTree.root(),
                frameList, fri.proof(queries), nonce, preOpenings, mainOpening, auxOpening, compositionOpening);
    }

    /**
     * D = sum_j mu^j DEEP_j(X^(2^s_j)) in coefficients: D[k * 2^s_j] += mu^j DEEP_j[k]; closes the tables' DEEP
     * matrices (a one-table proof's D is its DEEP matrix, handed over).
     */
    private Matrix liftedSum(Ext3 mu) {
        if (count == 1) {
            // one table: the sum is its own DEEP polynomial (mu^0 = 1, no lift), so no copy of it is made
            return deeps.getAndSet(0, null);
        }
        int n = 1 << domain.logMaxHeight();
        Matrix sum = Matrix.allocate(allocator(MatrixRole.DEEP), "lifted-deep", n, 3);
        try (Span _ = Spans.open("lifted_sum", "tables", count)) {
            long[][] acc = new long[3][n];
            Ext3 power = Ext3.ONE;
            for (int j = 0; j < count; j++) {
                try (Matrix d = deeps.getAndSet(j, null)) {
                    int rows = d.rows();
                    int stride = 1 << (domain.logMaxHeight() - domain.logHeight(j));
                    long[][] c = {d.columnToArray(0), d.columnToArray(1), d.columnToArray(2)};
                    long m0 = power.c0(), m1 = power.c1(), m2 = power.c2();
                    for (int k = 0; k < rows; k++) {
                        int at = k * stride;
                        long x0 = c[0][k], x1 = c[1][k], x2 = c[2][k];
                        acc[0][at] = Goldilocks.add(acc[0][at], Ext3.mul0(x0, x1, x2, m0, m1, m2));
                        acc[1][at] = Goldilocks.add(acc[1][at], Ext3.mul1(x0, x1, x2, m0, m1, m2));
                        acc[2][at] = Goldilocks.add(acc[2][at], Ext3.mul2(x0, x1, x2, m0, m1, m2));
                    }
                }
                power = power.mul(mu);
            }
            for (int limb = 0; limb < 3; limb++) {
                sum.writeColumn(limb, 0, acc[limb], 0, n);
            }
            return sum;
        } catch (RuntimeException | Error e) {
            sum.close();
            throw e;
        }
    }

    /** Heap of {@link #liftedSum}: the three accumulator columns and one table's three DEEP columns at most. */
    static long liftedSumScratchBytes(int logMaxHeight) {
        return 2L * 3 * Long.BYTES << logMaxHeight;
    }

    private PhaseCommitment phaseTree(String phase, IntFunction<MerkleTree> treeOf) {
        MerkleTree[] trees = new MerkleTree[count];
        for (int i = 0; i < count; i++) {
            trees[i] = treeOf.apply(i);
        }
        PhaseCommitment c = PhaseCommitment.commit(phase, domain, trees, hasher, settings.backend(), settings.pool(), allocator(MatrixRole.MERKLE_TREE));
        global.add(c);
        return c;
    }

    private BufferAllocator allocator(MatrixRole role) {
        // the global buffers belong to no table; the policy places them as it places the tallest table's
        int tallest = 0;
        for (int i = 0; i < count; i++) {
            if (traces.get(i).logHeight() > traces.get(tallest).logHeight()) {
                tallest = i;
            }
        }
        return settings.storage().allocatorFor(traces.get(tallest).name(), role);
    }

    /** The gate's estimate of a table's part of a pass, from the description its prover allocates from. */
    private Estimate estimate(TableBuffers.Pass pass) {
        return i -> MemoryEstimates.passBytes(provers.get(i).buffers(), pass, settings.storage());
    }

    private interface Step {
        void run(int index, io.jstark.prover.exec.TaskControl control) throws Exception;
    }

    private interface Estimate {
        long of(int index);
    }

    /** One per-table pass: the step for every table (the executor's tasks are indexed by table), as the executor schedules it. */
    private void pass(String label, Estimate estimate, Step step) {
        List<TableTask<Boolean>> tasks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            TableTrace trace = traces.get(i);
            tasks.add(StarkProver.task(index, trace, estimate.of(i), control -> {
                step.run(index, control);
                settings.progress().tableFinished(label, trace.name(), trace.height());
                return Boolean.TRUE;
            }));
        }
        settings.progress().passStarted(label, tasks.size());
        settings.executor().runAll(label, tasks);
        settings.progress().passFinished(label);
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(global);
        for (int i = 0; i < count; i++) {
            add(all, mains.getAndSet(i, null));
            add(all, auxes.getAndSet(i, null));
            add(all, compositions.getAndSet(i, null));
            add(all, deeps.getAndSet(i, null));
        }
        TableProver.closeAll(all);
    }

    private static void add(List<AutoCloseable> all, AutoCloseable c) {
        if (c != null) {
            all.add(c);
        }
    }
}
