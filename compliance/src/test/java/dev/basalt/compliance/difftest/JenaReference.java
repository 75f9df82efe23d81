package dev.basalt.compliance.difftest;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.jena.datatypes.TypeMapper;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryCancelledException;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.Syntax;
import org.apache.jena.sparql.core.DatasetDescription;
import org.apache.jena.sparql.core.DatasetGraph;
import org.apache.jena.sparql.core.DatasetGraphFactory;
import org.apache.jena.sparql.core.DynamicDatasets;
import org.apache.jena.sparql.core.Quad;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.sparql.exec.QueryExec;
import org.apache.jena.sparql.exec.RowSet;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.impl.MapBindingSet;

/**
 * Apache Jena ARQ over an in-memory copy of a random dataset: a third SPARQL engine, independent of
 * RDF4J's parser, algebra and evaluator, asked only when Basalt and MemoryStore disagree. Its answer
 * is evidence for the arbitration in {@link Arbitration}, not a definition of the right answer.
 *
 * <p>The copy follows RDF4J's dataset rules so the three engines answer the same question: without
 * FROM or FROM NAMED the default graph holds the statements of every graph (RDF4J reads all contexts
 * there; Jena's default graph here is that union, as a set) and GRAPH ranges over the named graphs;
 * a query with FROM or FROM NAMED runs over the dataset they describe (SPARQL 1.1 section 13.2),
 * built from the named graphs.
 *
 * <p>Thread rules: one instance per worker; it is not shared.
 */
final class JenaReference {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private final DatasetGraph union = DatasetGraphFactory.create();

    JenaReference(List<Statement> data) {
        for (Statement st : data) {
            Node s = node(st.getSubject());
            Node p = node(st.getPredicate());
            Node o = node(st.getObject());
            union.add(Quad.defaultGraphIRI, s, p, o);
            if (st.getContext() != null) {
                union.add(node(st.getContext()), s, p, o);
            }
        }
    }

    /** Jena's answer to {@code text}, in the same form as the other two stores'. */
    Answer answer(String text, boolean ordered) {
        try {
            Query query = QueryFactory.create(text, Syntax.syntaxSPARQL_11);
            DatasetGraph target = union;
            if (query.hasDatasetDescription()) {
                DatasetDescription description = DatasetDescription.create(query);
                target = DynamicDatasets.dynamicDataset(description, namedOnly(), false);
                query.getGraphURIs().clear();
                query.getNamedGraphURIs().clear();
            }
            try (QueryExec exec = QueryExec.newBuilder().dataset(target).query(query)
                    .timeout(DifferentialRunner.TIMEOUT_SECONDS, TimeUnit.SECONDS).build()) {
                RowSet rows = exec.select();
                List<String> names = rows.getResultVars().stream().map(Var::getVarName).toList();
                Answer.Builder answer = new Answer.Builder(names);
                while (rows.hasNext()) {
                    if (answer.size() == DifferentialRunner.MAX_ROWS) {
                        return Answer.skipped();
                    }
                    answer.add(solution(rows.next(), names));
                }
                return answer.build(ordered);
            }
        } catch (QueryCancelledException e) {
            return Answer.skipped();
        } catch (RuntimeException | StackOverflowError e) {
            return Answer.failed(e);
        }
    }

    /** The dataset whose graphs FROM and FROM NAMED pick: the named graphs only. */
    private DatasetGraph namedOnly() {
        DatasetGraph named = DatasetGraphFactory.create();
        union.find().forEachRemaining(q -> {
            if (!q.isDefaultGraph()) {
                named.add(q);
            }
        });
        return named;
    }

    private static MapBindingSet solution(Binding row, List<String> names) {
        MapBindingSet solution = new MapBindingSet();
        for (String name : names) {
            Node n = row.get(Var.alloc(name));
            if (n != null) {
                solution.addBinding(name, value(n));
            }
        }
        return solution;
    }

    private static Node node(Value v) {
        if (v instanceof IRI iri) {
            return NodeFactory.createURI(iri.stringValue());
        }
        if (v instanceof BNode b) {
            return NodeFactory.createBlankNode(b.getID());
        }
        Literal l = (Literal) v;
        if (l.getLanguage().isPresent()) {
            return NodeFactory.createLiteralLang(l.getLabel(), l.getLanguage().get());
        }
        return NodeFactory.createLiteralDT(l.getLabel(), TypeMapper.getInstance().getSafeTypeByName(l.getDatatype().stringValue()));
    }

    private static Value value(Node n) {
        if (n.isURI()) {
            return VF.createIRI(n.getURI());
        }
        if (n.isBlank()) {
            return VF.createBNode(n.getBlankNodeLabel());
        }
        if (n.isLiteral()) {
            String lang = n.getLiteralLanguage();
            if (lang != null && !lang.isEmpty()) {
                return VF.createLiteral(n.getLiteralLexicalForm(), lang);
            }
            return VF.createLiteral(n.getLiteralLexicalForm(), VF.createIRI(n.getLiteralDatatypeURI()));
        }
        throw new IllegalArgumentException("unexpected term in Jena's answer: " + n);
    }
}
