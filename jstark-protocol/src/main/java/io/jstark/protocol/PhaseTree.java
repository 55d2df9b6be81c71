package io.jstark.protocol;

import io.jstark.crypto.hash.Hasher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * How one Merkle tree of a proof commits a phase (main, aux or composition) of every table in it, tables
 * of all heights. Each table first commits its own rows in its own tree of blocks ({@link LiftedDomain}:
 * the rows one query opens per leaf), whose leaf hashes d_j are its block digests. Then:
 *
 * <ul>
 *   <li>a phase of one table is committed by that table's tree itself;</li>
 *   <li>otherwise the tables are grouped into classes of equal block count, walked from the fewest blocks
 *       up: the lowest class gives sigma_1[i] = H(d_a[i] || d_b[i] || ...) (its tables in index order),
 *       each higher class c gives sigma_c[i] = H(sigma_(c-1)[i &gt;&gt; (log blocks_c - log blocks_(c-1))] || d of
 *       class c at i), and the phase tree is the binary tree over the top class's sigma (one leaf per
 *       lifted query coset), internal nodes H(left || right) as in every tree.</li>
 * </ul>
 *
 * A leaf therefore binds exactly the blocks a query opens of every table, and the hashing follows the real
 * sizes of the tables, not the lifted ones. The prover builds each class as a tree whose leaf hashes are the
 * class's values (rows of the previous value and the digests, so the lane kernels hash them), the verifier
 * one opened leaf at a time with {@link #combine}: the same hash of the same bytes.
 */
public final class PhaseTree {
    private final LiftedDomain domain;
    private final int[] members;
    /** Classes in ascending block count: table indices, in index order within a class. */
    private final List<int[]> classes;

    /**
     * @param members the tables committing in this phase, in index order (at least one)
     */
    public PhaseTree(LiftedDomain domain, int[] members) {
        if (members.length == 0) {
            throw new IllegalArgumentException("a phase tree needs at least one table");
        }
        this.domain = domain;
        this.members = members.clone();
        TreeMap<Integer, List<Integer>> byBlocks = new TreeMap<>();
        for (int m : members) {
            byBlocks.computeIfAbsent(domain.logBlocks(m), k -> new ArrayList<>())
                    .add(m);
        }
        List<int[]> out = new ArrayList<>();
        for (List<Integer> c : byBlocks.values()) {
            out.add(c.stream().mapToInt(Integer::intValue).toArray());
        }
        this.classes = List.copyOf(out);
    }

    public int[] members() {
        return members.clone();
    }

    /** True when the phase is one table's own tree. */
    public boolean single() {
        return members.length == 1;
    }

    /** Classes in ascending block count (the last is the top class). */
    public List<int[]> classes() {
        return classes;
    }

    /** log2 of the phase tree's leaves. */
    public int logLeaves() {
        return single() ? domain.logBlocks(members[0]) : domain.logBlocks(classes.getLast()[0]);
    }

    /** The phase tree's leaf that query coset {@code query} opens. */
    public int leaf(int query) {
        return single() ? domain.block(members[0], query) : query >>> (domain.logQueryCosets() - logLeaves());
    }

    /** Log2 of the blocks of class {@code c}. */
    public int logBlocksOfClass(int c) {
        return domain.logBlocks(classes.get(c)[0]);
    }

    /** H(previous || digests...), previous omitted when null: one step of the class chain. */
    public static byte[] combine(Hasher hasher, byte[] previous, byte[][] digests) {
        int count = digests.length + (previous == null ? 0 : 1);
        byte[] input = new byte[count * Hasher.DIGEST_BYTES];
        int at = 0;
        if (previous != null) {
            System.arraycopy(previous, 0, input, 0, Hasher.DIGEST_BYTES);
            at = Hasher.DIGEST_BYTES;
        }
        for (byte[] d : digests) {
            System.arraycopy(d, 0, input, at, Hasher.DIGEST_BYTES);
            at += Hasher.DIGEST_BYTES;
        }
        return hasher.hash(input);
    }

    /** Block digests of one table, by block index (the verifier's opened blocks, the prover's tree). */
    @FunctionalInterface
    public interface Digests {
        byte[] of(int table, int block);
    }

    /**
     * The leaf hash of phase-tree leaf {@code leaf} from the member tables' block digests: for a single
     * table its block digest, otherwise the class chain's top value.
     */
    public byte[] leafHash(Hasher hasher, int leaf, Digests digests) {
        if (single()) {
            return digests.of(members[0], leaf);
        }
        int top = logLeaves();
        byte[] sigma = null;
        for (int[] c : classes) {
            int shift = top - domain.logBlocks(c[0]);
            byte[][] ds = new byte[c.length][];
            for (int k = 0; k < c.length; k++) {
                ds[k] = digests.of(c[k], leaf >>> shift);
            }
            sigma = combine(hasher, sigma, ds);
        }
        return sigma;
    }
}
