package io.jstark.air;

import io.jstark.air.expr.Expr;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A 32-byte fingerprint of a table definition: columns, periodic values, public inputs, every constraint
 * (expression, domain) and bus interaction, serialised canonically and hashed with SHA-256. Absorbed into
 * the transcript, it binds a proof to the exact constraint system the verifier runs: a verifier whose
 * table definition differs in any constraint derives different challenges and rejects. (Preprocessed
 * columns are functions; their values are bound by their pinned commitment instead.)
 */
public final class AirDigest {
    private AirDigest() {}

    /**
     * {@return the definition's 32-byte SHA-256 digest}
     *
     * @param air the definition
     */
    public static byte[] of(Air air) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeUTF("jstark-air-v1");
            out.writeUTF(air.name());
            writeNames(out, air.mainColumns());
            out.writeInt(air.preprocessedWidth());
            for (PreprocessedColumn c : air.preprocessedColumns()) {
                out.writeUTF(c.name());
            }
            out.writeInt(air.fixedLogHeight());
            out.writeInt(air.periodicColumns().size());
            for (PeriodicColumn p : air.periodicColumns()) {
                out.writeUTF(p.name());
                out.writeInt(p.period());
                for (long v : p.values()) {
                    out.writeLong(v);
                }
            }
            writeNames(out, air.publicInputs());
            Map<Expr, Integer> ids = new IdentityHashMap<>();
            int[] next = {0};
            out.writeInt(air.userConstraints().size());
            for (Constraint c : air.userConstraints()) {
                out.writeUTF(c.name());
                switch (c.domain()) {
                    case ConstraintDomain.Transition t -> {
                        out.writeByte(1);
                        out.writeInt(t.exemptRows());
                    }
                    case ConstraintDomain.Boundary b -> {
                        out.writeByte(2);
                        out.writeInt(b.row());
                        out.writeBoolean(b.fromEnd());
                    }
                }
                writeExpr(out, c.expr(), ids, next);
            }
            out.writeInt(air.interactions().size());
            for (BusInteraction i : air.interactions()) {
                out.writeUTF(i.bus().name());
                out.writeInt(i.bus().arity());
                out.writeLong(i.bus().id());
                out.writeByte(i.direction().ordinal());
                writeExpr(out, i.multiplicity(), ids, next);
                for (Expr v : i.values()) {
                    writeExpr(out, v, ids, next);
                }
            }
            out.flush();
            return MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray());
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot digest table '" + air.name() + "'", e);
        }
    }

    private static void writeNames(DataOutputStream out, java.util.List<String> names) throws IOException {
        out.writeInt(names.size());
        for (String n : names) {
            out.writeUTF(n);
        }
    }

    /** Post-order with back-references for shared subtrees, so shared DAGs stay linear in size. */
    private static void writeExpr(DataOutputStream out, Expr e, Map<Expr, Integer> ids, int[] next) throws IOException {
        Integer known = ids.get(e);
        if (known != null) {
            out.writeByte(0);
            out.writeInt(known);
            return;
        }
        switch (e) {
            case Expr.Const c -> {
                out.writeByte(1);
                out.writeLong(c.value());
            }
            case Expr.MainCell c -> {
                out.writeByte(2);
                out.writeInt(c.column());
                out.writeByte(c.rowOffset());
            }
            case Expr.PreprocessedCell c -> {
                out.writeByte(3);
                out.writeInt(c.column());
                out.writeByte(c.rowOffset());
            }
            case Expr.Periodic p -> {
                out.writeByte(4);
                out.writeInt(p.index());
            }
            case Expr.PublicInput p -> {
                out.writeByte(5);
                out.writeInt(p.index());
            }
            case Expr.Add a -> {
                writeExpr(out, a.left(), ids, next);
                writeExpr(out, a.right(), ids, next);
                out.writeByte(10);
            }
            case Expr.Sub s -> {
                writeExpr(out, s.left(), ids, next);
                writeExpr(out, s.right(), ids, next);
                out.writeByte(11);
            }
            case Expr.Mul m -> {
                writeExpr(out, m.left(), ids, next);
                writeExpr(out, m.right(), ids, next);
                out.writeByte(12);
            }
            case Expr.Neg n -> {
                writeExpr(out, n.inner(), ids, next);
                out.writeByte(13);
            }
            case Expr.Leaf other ->
                throw new IllegalArgumentException("reserved leaf " + other + " in a user expression");
        }
        ids.put(e, next[0]++);
    }
}
