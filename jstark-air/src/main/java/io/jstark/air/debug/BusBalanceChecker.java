package io.jstark.air.debug;

import io.jstark.air.Air;
import io.jstark.air.BusInteraction;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bus debug check: replays every table's sends and receives as multisets of tuples and reports,
 * per bus and per table, what one side sent that no table received. Multiplicities are read as signed
 * integers (a value above p/2 counts as negative). Meant for debugging, not for huge traces.
 */
public final class BusBalanceChecker {
    private static final int BATCH = 1024;
    private static final int MAX_REPORTED = 20;

    private BusBalanceChecker() {}

    /**
     * One table as the checker reads it.
     *
     * @param name the table's name
     * @param air its definition
     * @param main its main trace
     * @param preprocessed its preprocessed columns, or null when it has none
     * @param publicInputs its public inputs
     */
    public record TableInput(String name, Air air, Matrix main, Matrix preprocessed, long[] publicInputs) {}

    /**
     * Replays the tables' bus interactions.
     *
     * @param tables every table of the proof
     * @throws BusImbalanceException listing the unmatched tuples
     */
    public static void check(List<TableInput> tables) {
        Map<TupleKey, Map<String, Long>> net = new LinkedHashMap<>();
        for (TableInput table : tables) {
            accumulate(table, net);
        }
        List<String> lines = new ArrayList<>();
        int total = 0;
        for (Map.Entry<TupleKey, Map<String, Long>> e : net.entrySet()) {
            long sum = 0;
            for (long v : e.getValue().values()) {
                sum += v;
            }
            if (sum == 0) {
                continue;
            }
            total++;
            if (lines.size() < MAX_REPORTED) {
                lines.add(describe(e.getKey(), e.getValue(), sum));
            }
        }
        if (total > 0) {
            throw new BusImbalanceException(lines, total);
        }
    }

    private static void accumulate(TableInput table, Map<TupleKey, Map<String, Long>> net) {
        List<BusInteraction> interactions = table.air().interactions();
        if (interactions.isEmpty()) {
            return;
        }
        List<Expr> outputs = new ArrayList<>();
        int[] firstOutput = new int[interactions.size()];
        for (int i = 0; i < interactions.size(); i++) {
            firstOutput[i] = outputs.size();
            outputs.add(interactions.get(i).multiplicity());
            outputs.addAll(interactions.get(i).values());
        }
        ConstraintProgram.Bound program = ConstraintProgram.compile(outputs).bind(Uniforms.of(table.publicInputs()));
        ConstraintProgram.Workspace ws = program.newWorkspace(BATCH);
        TraceBatchSource source = new TraceBatchSource(table.air(), table.main(), table.preprocessed(), null);
        int rows = table.main().rows();
        for (int from = 0; from < rows; from += BATCH) {
            int len = Math.min(BATCH, rows - from);
            program.evaluate(ws, source, from, len);
            for (int i = 0; i < interactions.size(); i++) {
                BusInteraction interaction = interactions.get(i);
                long[] m = ws.output(firstOutput[i], 0);
                for (int r = 0; r < len; r++) {
                    if (m[r] == 0) {
                        continue;
                    }
                    long count = Long.compareUnsigned(m[r], Goldilocks.P >>> 1) > 0 ? -(Goldilocks.P - m[r]) : m[r];
                    long[] tuple = new long[interaction.values().size()];
                    for (int v = 0; v < tuple.length; v++) {
                        tuple[v] = ws.output(firstOutput[i] + 1 + v, 0)[r];
                    }
                    long signed = interaction.direction() == BusInteraction.Direction.SEND ? count : -count;
                    net.computeIfAbsent(new TupleKey(interaction.bus().name(), tuple), k -> new TreeMap<>())
                            .merge(table.name(), signed, Long::sum);
                }
            }
        }
    }

    private static String describe(TupleKey key, Map<String, Long> perTable, long sum) {
        StringBuilder sb = new StringBuilder("bus '")
                .append(key.bus)
                .append("' tuple ")
                .append(key.format())
                .append(": ");
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Long> t : perTable.entrySet()) {
            long v = t.getValue();
            if (v > 0) {
                parts.add("table '" + t.getKey() + "' sent it " + v + " time" + (v == 1 ? "" : "s"));
            } else if (v < 0) {
                parts.add("table '" + t.getKey() + "' received it " + (-v) + " time" + (v == -1 ? "" : "s"));
            }
        }
        sb.append(String.join(", ", parts));
        sb.append(sum > 0 ? " -> " + sum + " more sent than received" : " -> " + (-sum) + " more received than sent");
        return sb.toString();
    }

    private static final class TupleKey {
        final String bus;
        final long[] values;
        final int hash;

        TupleKey(String bus, long[] values) {
            this.bus = bus;
            this.values = values;
            this.hash = 31 * bus.hashCode() + Arrays.hashCode(values);
        }

        String format() {
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < values.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(values[i]));
            }
            return sb.append(')').toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TupleKey k && k.bus.equals(bus) && Arrays.equals(k.values, values);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
