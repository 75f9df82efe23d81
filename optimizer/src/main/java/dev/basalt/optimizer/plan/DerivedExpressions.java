package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.FunctionCall;
import org.eclipse.rdf4j.query.algebra.Str;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

/**
 * Recognizes expressions whose value depends on one variable's term and nothing else, so that the
 * value may be kept per term id and shared by every query of the store: chains of XSD constructor
 * casts ({@code xsd:decimal(...)}, {@code xsd:float(...)}, {@code xsd:string(...)} ...) and
 * {@code STR(...)} around a single unbound variable, such as BSBM's {@code xsd:decimal(str(?price))}
 * and {@code xsd:float(xsd:string(?price))}. Every such function is deterministic and reads only
 * its argument (no NOW, RAND, BNODE, dataset or bindings). Anything else is not recognized.
 *
 * <p>Stateless; any thread may call it.
 */
final class DerivedExpressions {
    private DerivedExpressions() {
    }

    /** The recognized expression's variable name, or null if {@code e} is not of that form. */
    static String variable(ValueExpr e) {
        ValueExpr x = e;
        int depth = 0;
        while (true) {
            if (x instanceof Var v) {
                return depth > 0 && !v.hasValue() ? v.getName() : null;
            }
            if (x instanceof Str s) {
                x = s.getArg();
            } else if (x instanceof FunctionCall f && f.getURI().startsWith(XSD.NAMESPACE) && f.getArgs().size() == 1) {
                x = f.getArgs().get(0);
            } else {
                return null;
            }
            depth++;
        }
    }

    /**
     * The key of a recognized expression in the store's shared cache: its chain of functions from the
     * outside in, the variable's name left out ({@code "xsd:decimal(str(?))"} for any variable).
     */
    static String key(ValueExpr e) {
        StringBuilder sb = new StringBuilder("derived:");
        int depth = 0;
        ValueExpr x = e;
        while (!(x instanceof Var)) {
            if (x instanceof Str s) {
                sb.append("str(");
                x = s.getArg();
            } else {
                FunctionCall f = (FunctionCall) x;
                sb.append('<').append(f.getURI()).append(">(");
                x = f.getArgs().get(0);
            }
            depth++;
        }
        sb.append('?');
        sb.append(")".repeat(depth));
        return sb.toString();
    }
}
