package io.jstark.cluster;

import io.jstark.air.Air;
import io.jstark.air.AirDigest;
import io.jstark.cluster.wire.OpenRequest;
import io.jstark.cluster.wire.TableClaim;
import io.jstark.crypto.hash.Hashers;
import io.jstark.instrument.ResidentMemory;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.ClaimedTable;
import io.jstark.prover.HostKernels;
import io.jstark.prover.LiftedSum;
import io.jstark.prover.PlacedTableSession;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofSession;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.TableCommitment;
import io.jstark.prover.ZkRandomness;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.Storage;
import io.jstark.storage.StoragePlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * One proof's tables on a worker: each placed table in a {@link PlacedTableSession} of its own (so that its DEEP
 * polynomial comes back unsummed, its out-of-domain point is the proof's lifted one, and with zero knowledge it draws
 * the randomness of its place in the statement from the proof's seed), its data held from the main commit to
 * {@link #close}. The buffers of each table are those of the whole proof ({@link TableBuffers#forProof} over every
 * table of the statement): its trees' leaves depend on the tallest table, which may live on another worker.
 */
final class WorkerSession implements AutoCloseable {
    private final String proofId;
    private final ProofOptions options;
    /** Every table's definition, in the proof's order (a table's mask ring neighbour may live elsewhere). */
    private final List<Air> statement;

    private final LiftedDomain domain;
    /** The proof's randomness when its options ask for zero knowledge (from the coordinator's seed), else null. */
    private final ZkRandomness randomness;

    private final int[] tables;
    private final PlacedTraces traces;
    private final List<TableBuffers> buffers;
    private final Preprocessing.Committed[] preprocessed;
    private final PlacedTableSession[] sessions;
    private final TableCommitment[][] commitments;
    private final OodFrame[] frames;
    /** The placed tables' buffers: in RAM, or in spill files where the worker's storage plan put them. */
    private final Storage storage;

    private final long reservedBytes;
    /** The process's resident memory while this proof's tables live here, for the worker's log. */
    private final ResidentMemory.PeakSampler resident = ResidentMemory.PeakSampler.start(50);

    private WorkerSession(
            String proofId,
            ProofOptions options,
            List<Air> statement,
            LiftedDomain domain,
            ZkRandomness randomness,
            int[] tables,
            PlacedTraces traces,
            List<TableBuffers> buffers,
            Preprocessing.Committed[] preprocessed,
            Storage storage) {
        this.proofId = proofId;
        this.options = options;
        this.statement = statement;
        this.domain = domain;
        this.randomness = randomness;
        this.tables = tables;
        this.traces = traces;
        this.buffers = buffers;
        this.preprocessed = preprocessed;
        this.sessions = new PlacedTableSession[tables.length];
        this.commitments = new TableCommitment[3][tables.length];
        this.frames = new OodFrame[tables.length];
        this.storage = storage;
        this.reservedBytes = storage.plan().prediction().peakResidentInUseBytes();
    }

    /**
     * Checks the request against what this worker knows (the source's definitions, their digests) and builds the
     * placed tables from the recipe, or allocates them for their upload.
     *
     * @param request the coordinator's request
     * @param source the table source the request names
     * @param keys the proving key of each source, made once per worker
     * @param worker this worker's address and storage
     * @param budget what this worker's budget has left beside the proofs it holds
     * @return the session, its tables planned within {@code budget}
     * @throws ClusterException naming the table whose claim this worker cannot meet, or the tables that do not fit
     *     even spilled
     */
    static WorkerSession open(
            OpenRequest request,
            TableSource source,
            Function<TableSource, ProvingKey> keys,
            WorkerService.Self worker,
            long budget) {
        ProofOptions options = Wire.options(request.getOptions());
        List<TableClaim> statement = request.getStatementList();
        ZkRandomness randomness = randomness(request, options);
        List<TableDimensions> dimensions = new ArrayList<>(statement.size());
        List<Air> airs = new ArrayList<>(statement.size());
        int[] heights = new int[statement.size()];
        for (int i = 0; i < statement.size(); i++) {
            TableClaim claim = statement.get(i);
            Air air = definition(source, claim);
            dimensions.add(new TableDimensions(claim.getName(), air, claim.getLogHeight()));
            airs.add(air);
            heights[i] = claim.getLogHeight();
        }
        int[] tables =
                request.getTablesList().stream().mapToInt(Integer::intValue).toArray();
        if (tables.length == 0) {
            throw new ClusterException("proof " + request.getProofId() + ": no tables placed on this worker");
        }
        List<TableBuffers> buffers = TableBuffers.forProof(
                dimensions, options, ProverSettings.defaults().pool().parallelism());
        Storage storage = worker.storage()
                .open(
                        request.getProofId(),
                        worker.address(),
                        dimensions,
                        buffers,
                        tables,
                        budget,
                        options,
                        ProverSettings.defaults().pool().parallelism());
        PlacedTraces traces;
        try {
            traces = PlacedTraces.of(
                    request,
                    source,
                    statement,
                    dimensions,
                    tables,
                    ProverSettings.defaults().pool());
        } catch (RuntimeException | Error e) {
            storage.close();
            throw e;
        }
        try {
            if (request.getDebugChecks()) {
                traces.checkConstraints();
            }
            ProvingKey key = keys.apply(source);
            Preprocessing.Committed[] preprocessed = new Preprocessing.Committed[tables.length];
            for (int l = 0; l < tables.length; l++) {
                Air air = traces.get(l).air();
                preprocessed[l] = air.preprocessedWidth() == 0
                        ? null
                        : key.preprocessed(
                                air, options, ProverSettings.defaults().pool());
            }
            return new WorkerSession(
                    request.getProofId(),
                    options,
                    List.copyOf(airs),
                    LiftedDomain.of(options, heights),
                    randomness,
                    tables,
                    traces,
                    buffers,
                    preprocessed,
                    storage);
        } catch (RuntimeException | Error e) {
            traces.close();
            storage.close();
            throw e;
        }
    }

    /** The proof's randomness from the coordinator's seed with zero knowledge; null without. */
    private static ZkRandomness randomness(OpenRequest request, ProofOptions options) {
        if (!options.zeroKnowledge()) {
            return null;
        }
        byte[] seed = request.getZeroKnowledgeSeed().toByteArray();
        if (seed.length != ZkRandomness.SEED_BYTES) {
            throw new ClusterException(
                    "proof " + request.getProofId() + ": the zero-knowledge option came with a seed of " + seed.length
                            + " bytes, not " + ZkRandomness.SEED_BYTES);
        }
        return ZkRandomness.ofSeed(seed);
    }

    private static Air definition(TableSource source, TableClaim claim) {
        for (Air air : source.airs()) {
            if (air.name().equals(claim.getAirName())) {
                if (!Arrays.equals(AirDigest.of(air), claim.getAirDigest().toByteArray())) {
                    throw new ClusterException("table '" + claim.getName() + "': this worker's definition '"
                            + air.name() + "' has another digest than the coordinator's (different jstark versions?)");
                }
                return air;
            }
        }
        throw new ClusterException("table '" + claim.getName() + "': table source '" + source.name()
                + "' has no definition '" + claim.getAirName() + "' on this worker");
    }

    String proofId() {
        return proofId;
    }

    /** {@return the RAM the storage plan predicts the placed tables hold at most (what the budget is charged)} */
    long reservedBytes() {
        return reservedBytes;
    }

    /** {@return where the placed tables' buffers live and the plan's notes (its warnings), for the worker's log} */
    String storageText() {
        StoragePlan plan = storage.plan();
        String where = plan.spillsAnything()
                ? "spilling " + plan.prediction().peakSpillBytes() + " bytes at peak under " + plan.spillDirectory()
                : "in RAM";
        return plan.notes().isEmpty() ? where : where + "; plan notes: " + String.join("; ", plan.notes());
    }

    int[] tables() {
        return tables.clone();
    }

    /** {@return the claim of each placed table, in the order of {@link #tables}, as this worker built it} */
    List<TableClaim> claims() {
        List<TableClaim> out = new ArrayList<>(tables.length);
        for (int l = 0; l < tables.length; l++) {
            out.add(Wire.claim(ClaimedTable.of(traces.get(l))));
        }
        return out;
    }

    /** The name of the table at proof index {@code table}, for log lines and errors. */
    String tableName(int local) {
        return traces.get(local).name();
    }

    /** Writes rows of an uploaded table's trace, column by column. */
    synchronized void upload(int table, int firstRow, int rows, long[] cells) {
        traces.upload(local(table), firstRow, rows, cells);
    }

    private int local(int table) {
        for (int l = 0; l < tables.length; l++) {
            if (tables[l] == table) {
                return l;
            }
        }
        throw new ClusterException("proof " + proofId + ": table " + table + " is not placed on this worker");
    }

    /** Round 1 for every placed table: per table its main commitment. */
    synchronized TableCommitment[] commitMain() {
        for (int l = 0; l < tables.length; l++) {
            traces.requireComplete(l);
            ProofContext context = new ProofContext(
                    List.of(traces.get(l)),
                    Collections.singletonList(preprocessed[l]),
                    new BackendMemory(List.of(buffers.get(tables[l])), List.of()),
                    LiftedDomain.of(options, new int[] {traces.get(l).logHeight()}),
                    options,
                    Hashers.byName(options.hash()),
                    ProverSettings.defaults().withStorage(storage),
                    randomness);
            sessions[l] = new PlacedTableSession(context, statement, tables[l], domain, HostKernels.cpu());
            commitments[0][l] = sessions[l].commitMain();
        }
        return commitments[0].clone();
    }

    /** The LogUp round: per table its aux commitment and bus sum (null without buses). */
    synchronized ProofSession.AuxRound commitAux(Ext3[] lookup) {
        List<TableCommitment> out = new ArrayList<>(tables.length);
        List<Ext3> sums = new ArrayList<>(tables.length);
        for (int l = 0; l < tables.length; l++) {
            ProofSession.AuxRound round = sessions[l].commitAux(lookup);
            commitments[1][l] = round.commitments().getFirst();
            out.add(commitments[1][l]);
            sums.add(round.busSums().getFirst());
        }
        return new ProofSession.AuxRound(out, sums);
    }

    synchronized TableCommitment[] commitComposition(Ext3 alpha) {
        for (int l = 0; l < tables.length; l++) {
            commitments[2][l] = sessions[l].commitComposition(alpha);
        }
        return commitments[2].clone();
    }

    /** Round 3: per table its frame at its lifted point z^(2^s_j) of the whole proof's domain. */
    synchronized OodFrame[] openOod(Ext3 z) {
        for (int l = 0; l < tables.length; l++) {
            frames[l] = sessions[l].openOod(domain.pointFor(tables[l], z));
        }
        return frames.clone();
    }

    /**
     * This worker's part of the lifted DEEP sum: sum over its tables of mu^j DEEP_j(X^(2^(h - h_j))), h its tallest
     * table's log height; the coordinator lifts it by 2^(K - h) and adds the parts (exact field sums).
     *
     * @return the three limb columns, 2^h coefficients each
     */
    synchronized long[][] deepSum(Ext3 gamma, Ext3 mu, Ext3 z) {
        long[][] acc = new long[3][1 << partialLogRows()];
        for (int l = 0; l < tables.length; l++) {
            int j = tables[l];
            Ext3 weight = Ext3.ONE;
            for (int k = 0; k < j; k++) {
                weight = weight.mul(mu);
            }
            try (Matrix d = sessions[l].deepPolynomial(frames[l], gamma, domain.pointFor(j, z))) {
                LiftedSum.add(acc, LiftedSum.limbs(d), d.rows(), 1 << (partialLogRows() - domain.logHeight(j)), weight);
            }
        }
        return acc;
    }

    /** log2 of the rows of {@link #deepSum}: the tallest placed table's. */
    int partialLogRows() {
        int h = 0;
        for (int j : tables) {
            h = Math.max(h, domain.logHeight(j));
        }
        return h;
    }

    /** The committed matrix of one phase (0 main, 1 aux, 2 composition) of the table at proof index {@code table}. */
    synchronized TableCommitment commitment(int phase, int table) {
        TableCommitment c = commitments[phase][local(table)];
        if (c == null) {
            throw new ClusterException(
                    "proof " + proofId + ": table " + table + " has no commitment of phase " + phase + " here");
        }
        return c;
    }

    /**
     * Frees the tables and stops sampling.
     *
     * @return the process's peak resident anonymous memory while the session was open, -1 where it cannot be read
     */
    synchronized long closeAndPeak() {
        long peak = resident.takePeaks().anonymous();
        close();
        return peak;
    }

    @Override
    public synchronized void close() {
        // the spill session is closed whatever a table's close throws: its files go with the proof on every path
        try (storage;
                traces;
                resident) {
            for (int l = 0; l < sessions.length; l++) {
                if (sessions[l] != null) {
                    PlacedTableSession s = sessions[l];
                    sessions[l] = null;
                    s.close();
                }
            }
        }
    }
}
