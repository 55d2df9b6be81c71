package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@link CpuBackend}'s side of one proof: each round a pass of {@link TableProver} steps over all tables on the
 * settings' executor (k at once under the memory gate, admitted by their {@link TableBuffers}), the results in
 * per-index cells so that they come back in table order whatever the schedule. Everything the query phase reads
 * (every table's LDEs and trees) lives until {@link #close}.
 */
final class CpuProofSession implements ProofSession {
    private final ProofContext context;
    private final HostKernels kernels;
    private final LiftedDomain domain;
    private final List<TableTrace> traces;
    private final List<TableProver> provers;
    private final int count;
    private final AtomicReferenceArray<HostCommitment> mains;
    private final AtomicReferenceArray<AuxCommitment> auxes;
    private final AtomicReferenceArray<HostCommitment> compositions;
    private final AtomicReferenceArray<Matrix> deeps;
    private Ext3[] lookup;

    CpuProofSession(ProofContext context, HostKernels kernels) {
        this.context = context;
        this.kernels = kernels;
        this.domain = context.domain();
        this.traces = context.traces();
        this.count = traces.size();
        this.provers = new ArrayList<>(count);
        List<io.jstark.air.Air> airs = new ArrayList<>(count);
        traces.forEach(t -> airs.add(t.air()));
        int[] maskPrevious = MaskTriples.previous(airs);
        for (int i = 0; i < count; i++) {
            provers.add(new TableProver(
                    traces.get(i),
                    context.options(),
                    context.hasher(),
                    context.settings(),
                    kernels,
                    context.preprocessed().get(i),
                    context.memory().host().get(i),
                    context.randomness() == null
                            ? null
                            : new TableRandomness(
                                    context.randomness(),
                                    context.options(),
                                    traces.get(i).name(),
                                    i,
                                    traces.get(i).logHeight(),
                                    maskPrevious[i],
                                    i == domain.firstTallest())));
        }
        this.mains = new AtomicReferenceArray<>(count);
        this.auxes = new AtomicReferenceArray<>(count);
        this.compositions = new AtomicReferenceArray<>(count);
        this.deeps = new AtomicReferenceArray<>(count);
    }

    @Override
    public List<TableCommitment> commitMain() {
        pass(ProofPhase.MAIN_COMMIT, (i, control) -> mains.set(i, provers.get(i).commitMain(control)));
        List<TableCommitment> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(mains.get(i));
        }
        return out;
    }

    @Override
    public AuxRound commitAux(Ext3[] lookupChallenges) {
        this.lookup = lookupChallenges.clone();
        pass(ProofPhase.AUX, (i, control) -> auxes.set(i, provers.get(i).commitAux(lookup)));
        List<TableCommitment> commitments = new ArrayList<>(count);
        List<Ext3> busSums = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            AuxCommitment aux = auxes.get(i);
            commitments.add(aux == null ? null : aux.commitment());
            busSums.add(aux == null ? null : aux.busSum());
        }
        return new AuxRound(commitments, busSums);
    }

    @Override
    public List<TableCommitment> commitComposition(Ext3 alpha) {
        pass(
                ProofPhase.COMPOSITION,
                (i, control) -> compositions.set(
                        i, provers.get(i).commitComposition(mains.get(i), auxes.get(i), lookup, alpha)));
        List<TableCommitment> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(compositions.get(i));
        }
        return out;
    }

    @Override
    public List<OodFrame> openOod(Ext3 z) {
        OodFrame[] frames = new OodFrame[count];
        pass(
                ProofPhase.OOD,
                (i, control) -> frames[i] =
                        provers.get(i).openOod(mains.get(i), auxes.get(i), compositions.get(i), domain.pointFor(i, z)));
        return Arrays.asList(frames);
    }

    @Override
    public Matrix liftedDeepPolynomial(List<OodFrame> frames, Ext3 gamma, Ext3 mu, Ext3 z) {
        pass(
                ProofPhase.DEEP,
                (i, control) -> deeps.set(
                        i,
                        provers.get(i)
                                .deepCoefficients(
                                        mains.get(i),
                                        auxes.get(i),
                                        compositions.get(i),
                                        frames.get(i),
                                        gamma,
                                        domain.pointFor(i, z))));
        Matrix sum = liftedSum(mu);
        if (context.randomness() != null) {
            addCodeword(sum, mu);
        }
        return sum;
    }

    /** D' = D + mu^T R: the random codeword enters FRI's batch with the power after the last table's. */
    private void addCodeword(Matrix sum, Ext3 mu) {
        try (Span _ = Spans.open("random_codeword", "tables", count)) {
            RandomCodeword.addTo(sum, context.randomness(), mu.pow(count));
        } catch (RuntimeException | Error e) {
            sum.close();
            throw e;
        }
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
        try (Span _ = Spans.open("lifted_sum", "tables", count)) {
            return LiftedSum.sum(context, acc -> {
                Ext3 power = Ext3.ONE;
                for (int j = 0; j < count; j++) {
                    try (Matrix d = deeps.getAndSet(j, null)) {
                        LiftedSum.add(
                                acc,
                                LiftedSum.limbs(d),
                                d.rows(),
                                1 << (domain.logMaxHeight() - domain.logHeight(j)),
                                power);
                    }
                    power = power.mul(mu);
                }
            });
        }
    }

    /** Heap of {@link #liftedSum}: the three accumulator columns and one table's three DEEP columns at most. */
    static long liftedSumScratchBytes(int logMaxHeight) {
        return 2L * 3 * Long.BYTES << logMaxHeight;
    }

    @Override
    public FriKernels globalKernels() {
        return kernels;
    }

    @Override
    public long grind(Transcript transcript, int bits) {
        return transcript.grind(bits, context.settings().pool());
    }

    private interface Step {
        void run(int index, TaskControl control) throws Exception;
    }

    /** One per-table pass: the step for every table (the executor's tasks are indexed by table), as the executor schedules it. */
    private void pass(ProofPhase pass, Step step) {
        String label = pass.label();
        ProverSettings settings = context.settings();
        List<TableTask<Boolean>> tasks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            TableTrace trace = traces.get(i);
            long bytes = MemoryEstimates.passBytes(provers.get(i).buffers(), pass, settings.storage());
            tasks.add(StarkProver.task(index, trace, bytes, control -> {
                step.run(index, control);
                settings.progress().tableFinished(label, trace.name(), trace.height());
                return Boolean.TRUE;
            }));
        }
        settings.executor().runAll(label, tasks);
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            add(all, mains.getAndSet(i, null));
            AuxCommitment aux = auxes.getAndSet(i, null);
            add(all, aux == null ? null : aux.commitment());
            add(all, compositions.getAndSet(i, null));
            add(all, deeps.getAndSet(i, null));
        }
        Resources.closeAll(all);
    }

    private static void add(List<AutoCloseable> all, AutoCloseable c) {
        if (c != null) {
            all.add(c);
        }
    }
}
