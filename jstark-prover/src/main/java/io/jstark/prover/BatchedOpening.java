package io.jstark.prover;

import io.jstark.air.BusInteraction;
import io.jstark.air.debug.BusImbalanceException;
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
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofTranscript;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The prover's phases after the prepass: each per-table round is one call to the backend's {@link ProofSession}
 * (which runs it over all tables), and between them the global steps run on the calling thread, each its own
 * phase:
 *
 * <ol>
 *   <li>{@code main_commit}: per table, main LDE and its tree of blocks;</li>
 *   <li>{@code main_tree}: the main phase tree; absorb its root, sample the lookup challenges;</li>
 *   <li>{@code aux}: per table with buses, the LogUp trace, its LDE and tree, the bus sum; the buses must
 *       balance;</li>
 *   <li>{@code aux_tree}: the aux phase tree; absorb it and the bus sums, sample alpha;</li>
 *   <li>{@code composition}: per table, its composition parts, extended and committed;</li>
 *   <li>{@code composition_tree}: the composition phase tree; absorb it, sample zeta;</li>
 *   <li>{@code ood}: per table, its frame at zeta^(2^s_j);</li>
 *   <li>{@code deep}: absorb the frames, sample gamma and mu; per table its DEEP polynomial, lifted and summed;</li>
 *   <li>{@code fri}: one FRI over the sum, grinding, the query cosets;</li>
 *   <li>{@code queries}: open every phase tree, the pinned preprocessed trees and FRI.</li>
 * </ol>
 *
 * The session holds every table's commitments until it is closed, after the proof is assembled;
 * {@link #close} releases the global trees whatever happened.
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
    private final List<Preprocessing.Committed> preprocessed;
    private final ProofOptions options;
    private final ProverSettings settings;
    private final Hasher hasher;
    private final ProofSession session;
    private final int count;
    private final List<AutoCloseable> global = new ArrayList<>();

    BatchedOpening(ProofContext context, ProofSession session) {
        this.domain = context.domain();
        this.traces = context.traces();
        this.preprocessed = context.preprocessed();
        this.options = context.options();
        this.settings = context.settings();
        this.hasher = context.hasher();
        this.session = session;
        this.count = traces.size();
    }

    Proof prove(Phases phases, Transcript t) {
        phases.next(SpanLabels.MAIN_COMMIT);
        List<TableCommitment> mains = session.commitMain();
        phases.next(MAIN_TREE);
        PhaseCommitment mainTree = phaseTree("main", mains);
        byte[] mainRoot = mainTree.root();
        Ext3[] lookup = ProofTranscript.absorbMainRootAndSampleLookupChallenges(t, mainRoot);

        phases.next(AUX_COMMIT);
        ProofSession.AuxRound aux = session.commitAux(lookup);
        requireBalancedBuses(aux.busSums());
        phases.next(AUX_TREE);
        PhaseCommitment auxTree = null;
        if (aux.commitments().stream().anyMatch(c -> c != null)) {
            auxTree = phaseTree("aux", aux.commitments());
            ProofTranscript.absorbAux(t, auxTree.root(), aux.busSums());
        }
        Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);

        phases.next(COMPOSITION);
        List<TableCommitment> compositions = session.commitComposition(alpha);
        phases.next(COMPOSITION_TREE);
        PhaseCommitment compositionTree = phaseTree("composition", compositions);
        ProofTranscript.absorbCompositionRoot(t, compositionTree.root());
        Ext3 z = ProofTranscript.sampleOodPoint(t, domain);

        phases.next(OOD);
        List<OodFrame> frames = session.openOod(z);
        phases.next(DEEP);
        ProofTranscript.absorbOodFrames(t, frames);
        Ext3[] deepChallenges = ProofTranscript.sampleDeepChallenges(t);
        Matrix lifted = session.liftedDeepPolynomial(frames, deepChallenges[0], deepChallenges[1], z);

        phases.next(FRI);
        FriProver fri;
        try (lifted) {
            fri = FriProver.commit("lifted", lifted, Preprocessing.shift(domain.logLde()), options.logBlowup(),
                    new FriParameters(options.logFoldingFactor(), options.logFinalDegree()), t, hasher, settings.pool(),
                    settings.storage().allocatorForGlobal(traces, MatrixRole.FRI_LAYER), session.globalKernels());
            global.add(fri);
        }
        long nonce;
        try (Span _ = Spans.open(SpanLabels.GRINDING, "bits", options.grindingBits())) {
            nonce = session.grind(t, options.grindingBits());
        }
        int[] queries = ProofTranscript.sampleQueries(t, options.queries(), domain);

        phases.next(SpanLabels.QUERIES, "queries", queries.length);
        List<Proof.TreeOpening> preOpenings = preprocessedOpenings(queries);
        Proof.PhaseOpening mainOpening = mainTree.open(queries);
        Proof.PhaseOpening auxOpening = auxTree == null ? null : auxTree.open(queries);
        Proof.PhaseOpening compositionOpening = compositionTree.open(queries);
        List<Proof.TableHeader> headers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            TableTrace trace = traces.get(i);
            Preprocessing.Committed pre = preprocessed.get(i);
            headers.add(new Proof.TableHeader(trace.name(), trace.air().name(), trace.logHeight(), trace.publicInputs(),
                    pre == null ? null : pre.tree().root()));
        }
        return new Proof(options, headers, mainRoot, auxTree == null ? null : auxTree.root(), aux.busSums(), compositionTree.root(),
                frames, fri.proof(queries), nonce, preOpenings, mainOpening, auxOpening, compositionOpening);
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
            for (BusInteraction b : traces.get(i).air().interactions()) {
                buses.add(b.bus().name());
            }
            contributions.add("table '" + traces.get(i).name() + "' (buses " + String.join(", ", buses) + "): " + sum);
        }
        if (!total.isZero()) {
            throw new BusImbalanceException("buses do not balance: the tables' bus contributions sum to " + total + " instead of zero, so "
                    + "some tuple is sent that no table receives (or received more often than sent); prove with debug checks on (--debug) "
                    + "to list the tuples per bus and table. Contributions:\n  " + String.join("\n  ", contributions));
        }
    }

    private PhaseCommitment phaseTree(String phase, List<TableCommitment> tables) {
        PhaseCommitment c = PhaseCommitment.commit(phase, domain, tables.toArray(TableCommitment[]::new), hasher, session.globalKernels(),
                settings.pool(), settings.storage().allocatorForGlobal(traces, MatrixRole.MERKLE_TREE));
        global.add(c);
        return c;
    }

    @Override
    public void close() {
        TableProver.closeAll(global);
    }
}
