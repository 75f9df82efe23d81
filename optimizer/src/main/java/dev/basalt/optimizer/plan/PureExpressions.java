package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.model.vocabulary.FN;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Bound;
import org.eclipse.rdf4j.query.algebra.Coalesce;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Datatype;
import org.eclipse.rdf4j.query.algebra.FunctionCall;
import org.eclipse.rdf4j.query.algebra.If;
import org.eclipse.rdf4j.query.algebra.IsBNode;
import org.eclipse.rdf4j.query.algebra.IsLiteral;
import org.eclipse.rdf4j.query.algebra.IsNumeric;
import org.eclipse.rdf4j.query.algebra.IsURI;
import org.eclipse.rdf4j.query.algebra.Lang;
import org.eclipse.rdf4j.query.algebra.LangMatches;
import org.eclipse.rdf4j.query.algebra.MathExpr;
import org.eclipse.rdf4j.query.algebra.Not;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.SameTerm;
import org.eclipse.rdf4j.query.algebra.Str;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * Which RDF4J expressions depend on their operands alone: a compiled plan kept for a query shape (the RDF4J
 * glue's {@code ShapePlans}) may evaluate them with the RDF4J evaluation step made by the evaluation that
 * compiled it, and an evaluation may keep their results per tuple of operand ids ({@link ComputedMemo}). Such a
 * step reads no statement, no dataset and no clock, keeps no state between calls and creates nothing that
 * differs per evaluation (no {@code BNODE()}, {@code NOW()}, {@code RAND()}, {@code UUID()}, no {@code EXISTS},
 * no custom function), so every evaluation of the kept plan, on any thread, gets what a step of its own would
 * give. Allowed: variables, constants, comparisons, {@code sameTerm}, arithmetic, the logical operators,
 * {@code IF}, {@code COALESCE}, {@code BOUND}, the term accessors ({@code STR}, {@code LANG}, {@code DATATYPE},
 * {@code langMatches}, the {@code is...} tests) and calls of XML Schema casts and XPath functions (RDF4J's
 * {@code xsd:} and {@code fn:} functions: string, numeric and date functions of their arguments). Anything else
 * makes the expression impure.
 *
 * <p>Stateless: a static test, any thread.
 */
public final class PureExpressions {
    private PureExpressions() {
    }

    /** Whether every node of {@code expr} is one of the allowed kinds (see the class comment). */
    public static boolean test(ValueExpr expr) {
        boolean[] pure = { true };
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (!pure[0]) {
                    return;
                }
                if (!allowed(node)) {
                    pure[0] = false;
                    return;
                }
                super.meetNode(node);
            }
        });
        return pure[0];
    }

    private static boolean allowed(QueryModelNode node) {
        if (node instanceof FunctionCall call) {
            String uri = call.getURI();
            return uri.startsWith(XSD.NAMESPACE) || uri.startsWith(FN.NAMESPACE);
        }
        return node instanceof Var || node instanceof ValueConstant || node instanceof Compare
                || node instanceof SameTerm || node instanceof MathExpr || node instanceof And || node instanceof Or
                || node instanceof Not || node instanceof If || node instanceof Coalesce || node instanceof Bound
                || node instanceof Str || node instanceof Lang || node instanceof Datatype
                || node instanceof LangMatches || node instanceof IsURI || node instanceof IsBNode
                || node instanceof IsLiteral || node instanceof IsNumeric;
    }
}
