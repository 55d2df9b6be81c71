package io.jstark.cluster;

import io.jstark.cluster.wire.HashChunk;
import io.jstark.cluster.wire.LeafHashesRequest;
import io.jstark.cluster.wire.LeafValues;
import io.jstark.cluster.wire.OpenLeavesReply;
import io.jstark.cluster.wire.OpenLeavesRequest;
import io.jstark.cluster.wire.Phase;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableCommitment;
import java.util.Arrays;
import java.util.Iterator;

/**
 * A table's committed matrix on its worker: the root and the leaf count came with the round's answer, everything else
 * is asked for (leaf hashes streamed in chunks; a query's leaf elements and siblings in one call, which the prover's
 * two reads of the same leaves share).
 *
 * <p>The leaves a worker opens at the queries are checked against what it committed: their elements must hash to leaf
 * hashes that, with the siblings it sent, give its root, and (where the worker streamed its leaf hashes for a phase tree)
 * to the leaf hashes it streamed, of which the first four bytes are kept. A worker whose openings disagree is named.
 */
final class RemoteCommitment implements TableCommitment {
    private final RemoteSession session;
    private final WorkerCalls calls;
    private final int table;
    private final Phase phase;
    private final byte[] root;
    private final int leaves;
    /** The phase tree its leaf hashes feed: their traffic counts under its label. */
    private final String treeLabel;

    private int[] openedLeaves;
    private OpenLeavesReply opened;
    /** The first four bytes of each leaf hash the worker streamed (little-endian), once it streamed any. */
    private int[] streamedPrefixes;

    private final java.util.concurrent.atomic.AtomicLong streamedLeaves = new java.util.concurrent.atomic.AtomicLong();

    RemoteCommitment(RemoteSession session, WorkerCalls calls, int table, Phase phase, byte[] root, int leaves) {
        this.session = session;
        this.calls = calls;
        this.table = table;
        this.phase = phase;
        this.root = root;
        this.leaves = leaves;
        this.treeLabel = switch (phase) {
            case MAIN -> ProofPhase.MAIN_TREE.label();
            case AUX -> ProofPhase.AUX_TREE.label();
            default -> ProofPhase.COMPOSITION_TREE.label();
        };
    }

    @Override
    public byte[] root() {
        return root.clone();
    }

    @Override
    public int leaves() {
        return leaves;
    }

    @Override
    public void leafHashes(int from, int to, byte[] out, int offset) {
        byte[] hashes = session.withFailover(
                session.home(table),
                p -> fetchLeafHashes(p, from, to),
                "leaf hashes of table " + table + " (" + phase + ")");
        System.arraycopy(hashes, 0, out, offset, hashes.length);
        int[] prefixes = prefixes();
        for (int leaf = from; leaf < to; leaf++) {
            prefixes[leaf] = prefix(hashes, 32 * (leaf - from));
        }
        streamedLeaves.addAndGet(to - from);
    }

    private synchronized int[] prefixes() {
        if (streamedPrefixes == null) {
            streamedPrefixes = new int[leaves];
        }
        return streamedPrefixes;
    }

    private static int prefix(byte[] hash, int offset) {
        return (hash[offset] & 0xFF)
                | (hash[offset + 1] & 0xFF) << 8
                | (hash[offset + 2] & 0xFF) << 16
                | (hash[offset + 3] & 0xFF) << 24;
    }

    private byte[] fetchLeafHashes(SessionPlacement.Placed p, int from, int to) {
        LeafHashesRequest request = LeafHashesRequest.newBuilder()
                .setProofId(p.sessionId())
                .setTable(table)
                .setPhase(phase)
                .setFrom(from)
                .setTo(to)
                .setChunkLeaves(Wire.CHUNK_LEAVES)
                .build();
        byte[] hashes = new byte[(to - from) * 32];
        int at = 0;
        Iterator<HashChunk> chunks = calls.stub(p.worker(), treeLabel).leafHashes(request);
        while (chunks.hasNext()) {
            HashChunk c = chunks.next();
            int n = c.getHashes().size();
            if (at + n > hashes.length) {
                throw new ClusterException("worker " + calls.workers().get(p.worker())
                        + " sent more leaf hashes than leaves [" + from + ", " + to + ") of table " + table);
            }
            c.getHashes().copyTo(hashes, at);
            at += n;
        }
        if (at != hashes.length) {
            throw new ClusterException(
                    "worker " + calls.workers().get(p.worker()) + " sent " + at + " bytes of leaf hashes for leaves ["
                            + from + ", " + to + ") of table " + table + ", not " + hashes.length);
        }
        return hashes;
    }

    private synchronized OpenLeavesReply open(int[] wanted) {
        if (opened == null || !Arrays.equals(openedLeaves, wanted)) {
            String label = ProofPhase.QUERIES.label();
            opened = session.withFailover(
                    session.home(table),
                    p -> {
                        OpenLeavesRequest.Builder b = OpenLeavesRequest.newBuilder()
                                .setProofId(p.sessionId())
                                .setTable(table)
                                .setPhase(phase);
                        for (int leaf : wanted) {
                            b.addLeaves(leaf);
                        }
                        return calls.stub(p.worker(), label).openLeaves(b.build());
                    },
                    "openings of table " + table + " (" + phase + ")");
            requireOpeningsOfTheCommitment(wanted, opened);
            openedLeaves = wanted.clone();
        }
        return opened;
    }

    /** The opened leaves hash, with the siblings, to the root the worker committed, and to the leaf hashes it streamed. */
    private void requireOpeningsOfTheCommitment(int[] wanted, OpenLeavesReply reply) {
        String worker = "worker " + calls.workers().get(session.home(table).worker());
        if (reply.getValuesCount() != wanted.length) {
            throw new ClusterException(worker + " opened " + reply.getValuesCount() + " leaves of table '"
                    + session.tableName(table) + "' (" + phase + "), not the " + wanted.length + " asked for");
        }
        Hasher hasher = session.hasher();
        byte[][] leafHashes = new byte[wanted.length][];
        for (int i = 0; i < wanted.length; i++) {
            LeafValues v = reply.getValues(i);
            long[] elements = new long[v.getElementsCount()];
            for (int k = 0; k < elements.length; k++) {
                elements[k] = v.getElements(k);
            }
            leafHashes[i] = MerkleVerifier.hashLeaf(hasher, elements);
        }
        byte[][] siblings = new byte[reply.getSiblingsCount()][];
        for (int i = 0; i < siblings.length; i++) {
            siblings[i] = reply.getSiblings(i).toByteArray();
        }
        if (!MerkleVerifier.verifyBatch(hasher, root, leaves, wanted, leafHashes, siblings)) {
            throw new ClusterException(
                    worker + " opened leaves " + Arrays.toString(wanted) + " of table '" + session.tableName(table)
                            + "' (" + phase + ") that do not open the root it committed: its values are wrong");
        }
        int[] prefixes;
        synchronized (this) {
            prefixes = streamedPrefixes;
        }
        if (prefixes != null && streamedLeaves.get() >= leaves) {
            for (int i = 0; i < wanted.length; i++) {
                if (prefix(leafHashes[i], 0) != prefixes[wanted[i]]) {
                    throw new ClusterException(
                            worker + " opened leaf " + wanted[i] + " of table '" + session.tableName(table) + "' ("
                                    + phase
                                    + ") with elements that do not hash to the leaf hash it streamed for the phase tree: its values are wrong");
                }
            }
        }
    }

    @Override
    public long[][] leafElements(int[] wanted) {
        OpenLeavesReply reply = open(wanted);
        long[][] out = new long[reply.getValuesCount()][];
        for (int i = 0; i < out.length; i++) {
            LeafValues v = reply.getValues(i);
            out[i] = new long[v.getElementsCount()];
            for (int k = 0; k < out[i].length; k++) {
                out[i][k] = v.getElements(k);
            }
        }
        return out;
    }

    /**
     * {@return the elements of a leaf the queries opened, as the worker sent them (checked against its root)}
     *
     * @throws IllegalStateException when the queries did not open that leaf
     */
    synchronized long[] openedLeaf(int leaf) {
        for (int i = 0; openedLeaves != null && i < openedLeaves.length; i++) {
            if (openedLeaves[i] == leaf) {
                return opened.getValues(i).getElementsList().stream()
                        .mapToLong(Long::longValue)
                        .toArray();
            }
        }
        throw new IllegalStateException(
                "leaf " + leaf + " of table '" + session.tableName(table) + "' (" + phase + ") was not opened");
    }

    @Override
    public byte[][] openBatch(int[] wanted) {
        OpenLeavesReply reply = open(wanted);
        byte[][] out = new byte[reply.getSiblingsCount()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = reply.getSiblings(i).toByteArray();
        }
        return out;
    }
}
