package io.jstark.prover;

import io.jstark.air.BusInteraction;
import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriProver;
import io.jstark.instrument.Phases;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import io.jstark.prover.exec.TableProvingException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The prover's phases after the prepass ({@link ProofPhase}, in its order): each per-table phase is one round of
 * the backend's {@link ProofSession} over all tables, each global phase runs on the calling thread between them,
 * and the transcript is touched only here, in {@code ProofTranscript}'s order. {@link #prove} reads as the
 * numbered phases; the session holds every table's commitments until it is closed, after the proof is assembled,
 * and {@link #close} releases the global trees whatever happened.
 */
final class BatchedOpening implements AutoCloseable {
    private final LiftedDomain domain;
    private final List<ClaimedTable> tables;
    /** The tables' traces where the prover holds them (for a diagnosis), else empty. */
    private final List<TableTrace> traces;

    private final List<Preprocessing.Committed> preprocessed;
    private final ProofOptions options;
    private final ProverSettings settings;
    private final Hasher hasher;
    private final ProofSession session;
    private final int count;
    private final List<AutoCloseable> global = new ArrayList<>();

    BatchedOpening(ProofContext context, ProofSession session) {
        this.domain = context.domain();
        this.tables = context.tables();
        this.traces = context.traces();
        this.preprocessed = context.preprocessed();
        this.options = context.options();
        this.settings = context.settings();
        this.hasher = context.hasher();
        this.session = session;
        this.count = tables.size();
    }

    Proof prove(Phases phases, Transcript t) {
        // 1. main_commit: every table's main trace extended and committed (the backend's round)
        List<TableCommitment> mains = round(phases, ProofPhase.MAIN_COMMIT, session::commitMain);

        // 2. main_tree: one phase tree over all tables' main blocks; absorb its root, draw the lookup challenges
        phases.next(ProofPhase.MAIN_TREE.label());
        PhaseCommitment mainTree = phaseTree("main", mains);
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, mainTree.root());

        // 3. aux: every table's LogUp trace built, extended and committed; the buses must balance
        ProofSession.AuxRound aux = round(phases, ProofPhase.AUX, () -> session.commitAux(lookup));
        if (settings.refuseUnbalancedBuses()) {
            requireBalancedBuses(aux.busSums());
        }

        // 4. aux_tree: the aux phase tree; absorb its root and the bus sums, draw the composition challenge
        phases.next(ProofPhase.AUX_TREE.label());
        PhaseCommitment auxTree = null;
        if (aux.commitments().stream().anyMatch(c -> c != null)) {
            auxTree = phaseTree("aux", aux.commitments());
            ProofTranscript.absorbAux(t, auxTree.root(), aux.busSums());
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);

        // 5. composition: every table's constraints combined, split into parts, extended and committed
        List<TableCommitment> compositions =
                round(phases, ProofPhase.COMPOSITION, () -> session.commitComposition(alpha));

        // 6. composition_tree: the composition phase tree; absorb its root, draw the out-of-domain point
        phases.next(ProofPhase.COMPOSITION_TREE.label());
        PhaseCommitment compositionTree = phaseTree("composition", compositions);
        ProofTranscript.absorbCompositionRoot(t, compositionTree.root());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);

        // 7. ood: every table's frame at its lifted point, checked against its constraints there as the verifier will
        List<OodFrame> frames = round(phases, ProofPhase.OOD, () -> session.openOod(z));
        requireConsistentFrames(frames, lookup, aux.busSums(), alpha, z);

        // 8. deep: absorb the frames, draw gamma and mu; the tables' DEEP polynomials, lifted and summed
        phases.next(ProofPhase.DEEP.label());
        ProofTranscript.absorbOodFrames(t, frames);
        Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
        Matrix lifted = round(
                null,
                ProofPhase.DEEP,
                () -> session.liftedDeepPolynomial(frames, deepChallenges[0], deepChallenges[1], z));

        // 9. fri: one FRI over the sum, grinding, the query positions
        phases.next(ProofPhase.FRI.label());
        FriProver fri = commitFri(lifted, t);
        long nonce;
        try (Span _ = Spans.open(SpanLabels.GRINDING, "bits", options.grindingBits())) {
            nonce = session.grind(t.copy(), options.grindingBits());
        }
        if (!t.verifyGrinding(options.grindingBits(), nonce)) {
            throw new IllegalStateException("the backend's grinding nonce " + nonce + " does not have "
                    + options.grindingBits() + " leading zero bits (a bug in the backend " + settings.backend() + ")");
        }
        int[] queries = ProofTranscript.sampleQueries(t, options.queries(), domain);

        // 10. queries: every phase tree, the pinned preprocessed trees and FRI opened at the queries
        phases.next(ProofPhase.QUERIES.label(), "queries", queries.length);
        Proof proof = new Proof(
                options,
                headers(),
                mainTree.root(),
                auxTree == null ? null : auxTree.root(),
                aux.busSums(),
                compositionTree.root(),
                frames,
                fri.proof(queries),
                nonce,
                preprocessedOpenings(queries),
                mainTree.open(queries),
                auxTree == null ? null : auxTree.open(queries),
                compositionTree.open(queries));
        session.queriesOpened(queries);
        return proof;
    }

    /**
     * One per-table round: its phase begun (unless it began already), the progress events around it, whatever the
     * backend (the progress bars and the memory meter follow them).
     */
    private <R> R round(Phases phases, ProofPhase phase, Supplier<R> work) {
        if (phases != null) {
            phases.next(phase.label());
        }
        settings.progress().passStarted(phase.label(), count);
        R result = work.get();
        settings.progress().passFinished(phase.label());
        return result;
    }

    /**
     * Every table's frame must satisfy its constraints at its point (the verifier's round-3 check): where it does not,
     * the table's trace breaks a constraint (named by the row check) or the backend's values are wrong.
     */
    private void requireConsistentFrames(List<OodFrame> frames, Ext3[] lookup, List<Ext3> busSums, Ext3 alpha, Ext3 z) {
        for (int i = 0; i < count; i++) {
            ClaimedTable table = tables.get(i);
            if (!FrameCheck.holds(
                    options,
                    table.air(),
                    table.logHeight(),
                    table.publicInputs(),
                    lookup,
                    busSums.get(i),
                    alpha,
                    domain.pointFor(i, z),
                    frames.get(i))) {
                throw new TableProvingException(
                        ProofPhase.OOD.label(),
                        i,
                        table.name(),
                        traces.isEmpty()
                                ? UnsatisfiedConstraints.ofOwned(table.name(), FrameCheck.FAILED)
                                : UnsatisfiedConstraints.of(
                                        traces.get(i), settings.storage(), FrameCheck.FAILED, null));
            }
        }
    }

    /** FRI over the lifted sum, which it closes; the layers' kernels are the session's. */
    private FriProver commitFri(Matrix lifted, Transcript t) {
        try (lifted) {
            FriProver fri = FriProver.commit(
                    "lifted",
                    lifted,
                    Preprocessing.shift(domain.logLde()),
                    options.logBlowup(),
                    options.friParameters(),
                    t,
                    hasher,
                    settings.pool(),
                    settings.storage().allocatorForGlobalOf(tables, MatrixRole.FRI_LAYER),
                    session.globalKernels());
            global.add(fri);
            return fri;
        }
    }

    private List<Proof.TableHeader> headers() {
        List<Proof.TableHeader> headers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ClaimedTable table = tables.get(i);
            Preprocessing.Committed pre = preprocessed.get(i);
            headers.add(new Proof.TableHeader(
                    table.name(),
                    table.air().name(),
                    table.logHeight(),
                    table.publicInputs(),
                    pre == null ? null : pre.tree().root()));
        }
        return headers;
    }

    /** The pinned preprocessed trees (the proving key's, on this host) opened at each query's leaf. */
    private List<Proof.TreeOpening> preprocessedOpenings(int[] queries) {
        List<Proof.TreeOpening> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Preprocessing.Committed pre = preprocessed.get(i);
            if (pre == null) {
                out.add(null);
                continue;
            }
            int[] leaves = new int[queries.length];
            for (int q = 0; q < queries.length; q++) {
                leaves[q] = domain.preprocessedLeaf(i, queries[q]);
            }
            int[] distinct = MerkleTree.openedLeaves(leaves);
            MerkleTree tree = pre.tree();
            long[][] values = new long[distinct.length][];
            for (int l = 0; l < distinct.length; l++) {
                values[l] = tree.leafElements(distinct[l]);
            }
            out.add(new Proof.TreeOpening(values, tree.openBatch(distinct)));
        }
        return out;
    }

    /**
     * The tables' bus contributions must cancel, or every verifier rejects the proof: refused as soon as the sums
     * are known, before the composition and everything after it, naming each table's sum and the buses it uses.
     */
    private void requireBalancedBuses(List<Ext3> busSums) {
        Ext3 total = Ext3.ZERO;
        List<String> contributions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Ext3 sum = busSums.get(i);
            if (sum == null) {
                continue;
            }
            total = total.add(sum);
            Set<String> buses = new LinkedHashSet<>();
            for (BusInteraction b : tables.get(i).air().interactions()) {
                buses.add(b.bus().name());
            }
            contributions.add("table '" + tables.get(i).name() + "' (buses " + String.join(", ", buses) + "): " + sum);
        }
        if (!total.isZero()) {
            throw new BusImbalanceException("buses do not balance: the tables' bus contributions sum to " + total
                    + " instead of zero, so "
                    + "some tuple is sent that no table receives (or received more often than sent); prove with debug checks on (--debug) "
                    + "to list the tuples per bus and table. Contributions:\n  " + String.join("\n  ", contributions));
        }
    }

    private PhaseCommitment phaseTree(String phase, List<TableCommitment> commitments) {
        PhaseCommitment c = PhaseCommitment.commit(
                phase,
                domain,
                commitments.toArray(TableCommitment[]::new),
                hasher,
                session.globalKernels(),
                settings.pool(),
                settings.storage().allocatorForGlobalOf(tables, MatrixRole.MERKLE_TREE));
        global.add(c);
        return c;
    }

    @Override
    public void close() {
        Resources.closeAll(global);
    }
}
