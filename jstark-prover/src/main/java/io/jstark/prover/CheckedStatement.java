package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.StatementRules;
import java.util.List;

/**
 * A statement the proving key has checked under options ({@link ProvingKey#checkStatement}): its definitions are the
 * key's, the statement rules hold, and the options reach their required security. A caller that checked before
 * planning hands it to {@link StarkProver#prove(List, CheckedStatement, BackendMemory)}, which then does not check
 * again, only that the traces are the tables that were checked.
 *
 * @param tables the checked tables, in the proof's order
 * @param options the options they were checked under
 * @param security the security the options reach for them
 */
public record CheckedStatement(List<StatementRules.Claim> tables, ProofOptions options, Security.Report security) {
    /**
     * Copies the list.
     *
     * @param tables the checked tables, in the proof's order
     * @param options the options they were checked under
     * @param security the security the options reach for them
     */
    public CheckedStatement {
        tables = List.copyOf(tables);
    }

    /**
     * Whether these traces are the checked tables: the same names, definitions (the same instances), heights and
     * numbers of public inputs, in the same order.
     *
     * @param traces the traces to prove
     * @return true when they are
     */
    public boolean isOf(List<TableTrace> traces) {
        if (traces.size() != tables.size()) {
            return false;
        }
        for (int i = 0; i < traces.size(); i++) {
            TableTrace t = traces.get(i);
            StatementRules.Claim c = tables.get(i);
            if (!t.name().equals(c.name())
                    || t.air() != c.definition()
                    || t.logHeight() != c.logHeight()
                    || t.publicInputs().length != c.publicInputCount()) {
                return false;
            }
        }
        return true;
    }
}
