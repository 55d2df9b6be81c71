package io.jstark.examples;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Table definitions and seeded, balanced traces for a {@link MixSpec}. Tables of the same shape share one
 * definition (one {@link Air} instance, whatever spec asks for it), so a mix may hold several tables of
 * one kind at different heights. Each table draws from its own random stream of the seed: the same seed
 * gives identical traces.
 */
public final class Mix {
    /** Rows generated per block: workers never hold a whole tall table on the heap. */
    private static final int BLOCK = 1 << 12;
    /** A worker's lookup fires on a row with probability 3/4 (selector 1). */
    private static final int SELECTOR_ODDS = 4;

    private static final Map<String, Air> AIRS = new ConcurrentHashMap<>();

    private Mix() {}

    /** The bus on which receiver {@code receiver} lists its tuples. */
    public static Bus lookupBus(String receiver, int arity) {
        return Bus.of("lookup:" + receiver, arity);
    }

    /** The definition of one table of a mix (shared by every table of the same shape). */
    public static Air airOf(MixSpec.Table table) {
        return switch (table) {
            case MixSpec.RangeChecks r -> RangeTable.AIR;
            case MixSpec.Bitwise b -> BitwiseTable.AIR;
            case MixSpec.Receiver r ->
                AIRS.computeIfAbsent("receiver-" + r.name() + "-a" + r.arity(), key -> receiverAir(key, r));
            case MixSpec.Worker w -> AIRS.computeIfAbsent(workerKey(w), key -> workerAir(key, w));
        };
    }

    /** The distinct definitions of a mix, in order of first use. */
    public static List<Air> airs(MixSpec spec) {
        Map<Air, Boolean> distinct = new LinkedHashMap<>();
        for (MixSpec.Table t : spec.tables()) {
            distinct.put(airOf(t), Boolean.TRUE);
        }
        return List.copyOf(distinct.keySet());
    }

    /** A name that identifies the worker's shape (not its height): equal names, equal definitions. */
    private static String workerKey(MixSpec.Worker w) {
        StringBuilder key =
                new StringBuilder(w.rangeLimbs() + w.bytePairs() + w.lookups().size() == 0 ? "compute" : "worker");
        if (w.stateColumns() > 0) {
            key.append("-s").append(w.stateColumns()).append("d").append(w.degree());
        }
        if (w.rangeLimbs() > 0) {
            key.append("-r").append(w.rangeLimbs());
        }
        if (w.bytePairs() > 0) {
            key.append("-b").append(w.bytePairs());
        }
        for (MixSpec.Lookup l : w.lookups()) {
            key.append('-').append(l.receiver()).append(".a").append(l.arity());
        }
        return key.toString();
    }

    private static Air workerAir(String name, MixSpec.Worker w) {
        AirBuilder b = Air.builder(name);
        int state = w.stateColumns();
        Expr.MainCell[] s = b.mainRange("s", state);
        Expr.MainCell[] limbs = b.mainRange("limb", w.rangeLimbs());
        Expr.MainCell[][] pairs = new Expr.MainCell[w.bytePairs()][];
        for (int k = 0; k < pairs.length; k++) {
            pairs[k] = b.main("a" + k, "b" + k, "xor" + k);
        }
        Expr.MainCell[] selectors = new Expr.MainCell[w.lookups().size()];
        Expr.MainCell[][] tuples = new Expr.MainCell[w.lookups().size()][];
        for (int l = 0; l < selectors.length; l++) {
            selectors[l] = b.main("sel" + l);
            tuples[l] = b.mainRange("l" + l + "v", w.lookups().get(l).arity());
        }
        for (int j = 0; j < state; j++) {
            Expr rule = s[j].mul(s[(j + 1) % state]);
            if (w.degree() == 3) {
                rule = rule.mul(s[(j + 2) % state]).add(s[(j + 3) % state]);
            } else {
                rule = rule.add(s[(j + 2) % state]);
            }
            b.transition("s" + j + "' = rule(s)", s[j].next().sub(rule.add(j)));
        }
        for (int l = 0; l < selectors.length; l++) {
            b.everyRow("sel" + l + " is boolean", selectors[l].mul(selectors[l].oneMinus()));
        }
        for (Expr.MainCell limb : limbs) {
            b.send(RangeTable.BUS, Expr.constant(1), limb);
        }
        for (Expr.MainCell[] p : pairs) {
            b.send(BitwiseTable.BUS, Expr.constant(1), p);
        }
        for (int l = 0; l < selectors.length; l++) {
            MixSpec.Lookup lookup = w.lookups().get(l);
            b.send(lookupBus(lookup.receiver(), lookup.arity()), selectors[l], tuples[l]);
        }
        return b.build();
    }

    private static Air receiverAir(String name, MixSpec.Receiver r) {
        AirBuilder b = Air.builder(name);
        Expr.MainCell key = b.main("key");
        Expr.MainCell[] values = b.mainRange("v", r.arity() - 1);
        Expr.MainCell multiplicity = b.main("multiplicity");
        b.first("keys start at 0", key);
        b.transition("keys count up (tuples are distinct)", key.next().sub(key).sub(1));
        Expr[] tuple = new Expr[r.arity()];
        tuple[0] = key;
        System.arraycopy(values, 0, tuple, 1, values.length);
        b.receive(lookupBus(r.name(), r.arity()), multiplicity, tuple);
        return b.build();
    }

    /** A receiver's random tuples (the key column is implicit: the row index) and the lookup counts. */
    private record ReceiverContents(long[][] values, long[] counts) {}

    /** Generates the mix's traces from {@code seed}: every table valid, every bus balanced. */
    public static Workload generate(MixSpec spec, long seed, BufferAllocator allocator) {
        List<MixSpec.Table> tables = spec.tables();
        Map<String, ReceiverContents> receivers = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i) instanceof MixSpec.Receiver r) {
                receivers.put(r.name(), receiverContents(r, Seeds.stream(seed, i)));
            }
        }
        long[] rangeCounts = new long[RangeTable.ROWS];
        long[] bitwiseCounts = new long[BitwiseTable.ROWS];
        try (WorkloadBuilder builder =
                new WorkloadBuilder("mix(" + tables.size() + " tables, seed=" + seed + ")", tables.size(), allocator)) {
            // workers first: the receivers' and the preprocessed tables' multiplicities count their traffic
            for (int i = 0; i < tables.size(); i++) {
                if (tables.get(i) instanceof MixSpec.Worker w) {
                    generateWorker(builder, i, w, Seeds.stream(seed, i), receivers, rangeCounts, bitwiseCounts);
                }
            }
            for (int i = 0; i < tables.size(); i++) {
                switch (tables.get(i)) {
                    case MixSpec.Receiver r ->
                        builder.set(i, r.name(), airOf(r), receiverColumns(r, receivers.get(r.name())));
                    case MixSpec.RangeChecks r -> builder.set(i, r.name(), RangeTable.AIR, new long[][] {rangeCounts});
                    case MixSpec.Bitwise b -> builder.set(i, b.name(), BitwiseTable.AIR, new long[][] {bitwiseCounts});
                    case MixSpec.Worker w -> {}
                }
            }
            return builder.build();
        }
    }

    private static ReceiverContents receiverContents(MixSpec.Receiver r, SplittableRandom rnd) {
        int rows = 1 << r.logHeight();
        long[][] values = new long[r.arity() - 1][rows];
        for (long[] column : values) {
            for (int row = 0; row < rows; row++) {
                column[row] = Seeds.fieldElement(rnd);
            }
        }
        return new ReceiverContents(values, new long[rows]);
    }

    private static long[][] receiverColumns(MixSpec.Receiver r, ReceiverContents contents) {
        int rows = 1 << r.logHeight();
        long[][] columns = new long[r.width()][];
        long[] keys = new long[rows];
        for (int row = 0; row < rows; row++) {
            keys[row] = row;
        }
        columns[0] = keys;
        System.arraycopy(contents.values(), 0, columns, 1, contents.values().length);
        columns[r.arity()] = contents.counts();
        return columns;
    }

    private static void generateWorker(
            WorkloadBuilder builder,
            int index,
            MixSpec.Worker w,
            SplittableRandom rnd,
            Map<String, ReceiverContents> receivers,
            long[] rangeCounts,
            long[] bitwiseCounts) {
        Air air = airOf(w);
        int rows = 1 << w.logHeight();
        int block = Math.min(BLOCK, rows);
        Matrix m = builder.allocate(index, w.name(), air, rows);
        long[][] buf = new long[air.mainWidth()][block];
        int state = w.stateColumns();
        long[] current = new long[state];
        long[] next = new long[state];
        int[] plus1 = new int[state], plus2 = new int[state], plus3 = new int[state];
        for (int j = 0; j < state; j++) {
            current[j] = Seeds.fieldElement(rnd);
            plus1[j] = (j + 1) % state;
            plus2[j] = (j + 2) % state;
            plus3[j] = (j + 3) % state;
        }
        boolean cubic = w.degree() == 3;
        int lookups = w.lookups().size();
        ReceiverContents[] targets = new ReceiverContents[lookups];
        int[] arities = new int[lookups];
        for (int l = 0; l < lookups; l++) {
            targets[l] = receivers.get(w.lookups().get(l).receiver());
            arities[l] = w.lookups().get(l).arity();
        }
        for (int from = 0; from < rows; from += block) {
            for (int r = 0; r < block; r++) {
                for (int j = 0; j < state; j++) {
                    buf[j][r] = current[j];
                    long product = Goldilocks.mul(current[j], current[plus1[j]]);
                    long rule = cubic
                            ? Goldilocks.add(Goldilocks.mul(product, current[plus2[j]]), current[plus3[j]])
                            : Goldilocks.add(product, current[plus2[j]]);
                    next[j] = Goldilocks.add(rule, j);
                }
                long[] swap = current;
                current = next;
                next = swap;
                int col = state;
                for (int k = 0; k < w.rangeLimbs(); k++) {
                    int limb = rnd.nextInt(RangeTable.ROWS);
                    buf[col++][r] = limb;
                    rangeCounts[limb]++;
                }
                for (int k = 0; k < w.bytePairs(); k++) {
                    int a = rnd.nextInt(256);
                    int b = rnd.nextInt(256);
                    buf[col++][r] = a;
                    buf[col++][r] = b;
                    buf[col++][r] = a ^ b;
                    bitwiseCounts[BitwiseTable.row(a, b)]++;
                }
                for (int l = 0; l < lookups; l++) {
                    ReceiverContents target = targets[l];
                    if (rnd.nextInt(SELECTOR_ODDS) != 0) {
                        int pick = rnd.nextInt(target.counts().length);
                        buf[col][r] = 1;
                        buf[col + 1][r] = pick;
                        for (int v = 1; v < arities[l]; v++) {
                            buf[col + 1 + v][r] = target.values()[v - 1][pick];
                        }
                        target.counts()[pick]++;
                    } else {
                        for (int v = 0; v <= arities[l]; v++) {
                            buf[col + v][r] = 0;
                        }
                    }
                    col += 1 + arities[l];
                }
            }
            for (int c = 0; c < buf.length; c++) {
                m.writeColumn(c, from, buf[c], 0, block);
            }
        }
        builder.set(index, w.name(), air);
    }
}
