package io.jstark.examples.zk;

import io.jstark.air.Air;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import java.util.List;

/**
 * The zero-knowledge tests' statement: a table sends its private values on a bus, another receives them. Two
 * witnesses of it differ only in the values, which the public statement does not name.
 */
final class SecretSetStatement {
    static final Bus SET = Bus.of("zk-test-set", 1);
    static final Air SECRET = secret();
    static final Air PUBLIC_SET = publicSet();
    static final List<Air> AIRS = List.of(SECRET, PUBLIC_SET);

    private SecretSetStatement() {}

    private static Air secret() {
        var b = Air.builder("secret");
        Expr.MainCell x = b.main("x");
        b.send(SET, Expr.constant(1), x);
        return b.build();
    }

    private static Air publicSet() {
        var b = Air.builder("public-set");
        Expr.MainCell y = b.main("y");
        b.receive(SET, Expr.constant(1), y);
        return b.build();
    }
}
