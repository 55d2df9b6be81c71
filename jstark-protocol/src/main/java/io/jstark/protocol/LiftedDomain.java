package io.jstark.protocol;

import io.jstark.math.field.Ext3;
import java.util.List;

/**
 * The geometry of a proof: every table is read as lifted to the tallest LDE domain. With K the
 * log2 size of the tallest LDE (2^K points on the coset {@link Preprocessing#shift}(K)) and K_j table j's,
 * table j's lift is s_j = K - K_j: position m of the lifted domain (bit-reversed order) is row m &gt;&gt; s_j
 * of table j's LDE, and its point there is the lifted point raised to 2^s_j (the shift schedule makes both
 * cosets agree). A query is one coset of f = 2^logF consecutive lifted positions, q in [0, 2^(K - logF)):
 * table j answers it with one block of {@link #rowsPerBlock} rows (f rows for the tallest tables, fewer the
 * shorter a table is, one row once it is at least f times shorter).
 *
 * <p>A table's height here is its committed height: its rows, or in a zero-knowledge proof the taller
 * {@link ZeroKnowledge#committedLogHeight} its randomized columns have; {@link #logTraceHeight} is its rows.
 */
public final class LiftedDomain {
    private final int logF;
    private final int logLde;
    private final int logMaxHeight;
    private final int[] logHeights;
    private final int[] logTraceHeights;
    private final int logBlowup;

    private LiftedDomain(int logBlowup, int logF, int[] logHeights, int[] logTraceHeights) {
        this.logBlowup = logBlowup;
        this.logF = logF;
        this.logHeights = logHeights.clone();
        this.logTraceHeights = logTraceHeights.clone();
        int max = 0;
        for (int h : logHeights) {
            max = Math.max(max, h);
        }
        this.logMaxHeight = max;
        this.logLde = max + logBlowup;
    }

    /**
     * {@return the domain of tables of these heights under these options}
     *
     * @param options the proof's options (zero knowledge commits taller columns)
     * @param logHeights log2 of each table's rows
     */
    public static LiftedDomain of(ProofOptions options, int[] logHeights) {
        int[] committed = new int[logHeights.length];
        for (int i = 0; i < committed.length; i++) {
            committed[i] = ZeroKnowledge.committedLogHeight(options, logHeights[i]);
        }
        return new LiftedDomain(options.logBlowup(), options.logFoldingFactor(), committed, logHeights);
    }

    public static LiftedDomain of(ProofOptions options, List<Proof.TableHeader> tables) {
        int[] heights = new int[tables.size()];
        for (int i = 0; i < heights.length; i++) {
            heights[i] = tables.get(i).logHeight();
        }
        return of(options, heights);
    }

    public int tables() {
        return logHeights.length;
    }

    /**
     * {@return the first table of the tallest committed height: the one a proof's global steps are described with and,
     * with zero knowledge, whose composition commitment holds the random codeword}
     */
    public int firstTallest() {
        int j = 0;
        while (logHeights[j] != logMaxHeight) {
            j++;
        }
        return j;
    }

    /** K: log2 of the lifted (tallest) LDE domain, FRI's layer 0. */
    public int logLde() {
        return logLde;
    }

    /** log2 of the tallest table's rows: FRI's degree bound. */
    public int logMaxHeight() {
        return logMaxHeight;
    }

    /** log2 of the queried cosets of the lifted domain. */
    public int logQueryCosets() {
        return logLde - logF;
    }

    /** log2 of table j's committed height: the degree bound of its committed columns. */
    public int logHeight(int table) {
        return logHeights[table];
    }

    /** log2 of table j's rows (its constraints' domain). */
    public int logTraceHeight(int table) {
        return logTraceHeights[table];
    }

    /** K_j: log2 of table j's own LDE domain. */
    public int logLde(int table) {
        return logHeights[table] + logBlowup;
    }

    /** s_j = K - K_j. */
    public int lift(int table) {
        return logLde - logLde(table);
    }

    /** log2 of the rows one query opens of table j: max(0, logF - s_j). */
    public int logRowsPerBlock(int table) {
        return Math.max(0, logF - lift(table));
    }

    public int rowsPerBlock(int table) {
        return 1 << logRowsPerBlock(table);
    }

    /** log2 of table j's blocks (the leaves of its own tree). */
    public int logBlocks(int table) {
        return logLde(table) - logRowsPerBlock(table);
    }

    /** The block of table j that query coset {@code query} opens. */
    public int block(int table, int query) {
        return query >>> Math.max(0, lift(table) - logF);
    }

    /** Row of table j's LDE at lifted position {@code position}. */
    public int row(int table, int position) {
        return position >>> lift(table);
    }

    /** Table j's point for the lifted point {@code z}: z^(2^s_j). */
    public Ext3 pointFor(int table, Ext3 z) {
        Ext3 y = z;
        for (int k = 0; k < lift(table); k++) {
            y = y.square();
        }
        return y;
    }

    /** Leaf of table j's pinned preprocessed tree (f rows per leaf) that query coset {@code query} opens. */
    public int preprocessedLeaf(int table, int query) {
        return query >>> lift(table);
    }
}
