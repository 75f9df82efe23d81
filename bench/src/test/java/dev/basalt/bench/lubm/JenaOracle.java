package dev.basalt.bench.lubm;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.jena.datatypes.TypeMapper;
import org.apache.jena.graph.Graph;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.graph.Triple;
import org.apache.jena.rdf.model.InfModel;
import org.apache.jena.rdf.model.Model;
import org.apache.jena.rdf.model.ModelFactory;
import org.apache.jena.reasoner.ReasonerRegistry;
import org.apache.jena.util.iterator.ExtendedIterator;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.collectors.StatementPatternCollector;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;

import dev.basalt.bench.driver.QueryTemplate;

/**
 * The LUBM answers Apache Jena's OWL rule reasoner ({@code ReasonerRegistry.getOWLMiniReasoner()})
 * gives for a set of statements (ontology and data). Jena only reasons: for each query, the
 * triples its reasoner entails that match one of the query's triple patterns are copied into a
 * plain MemoryStore (no inference), where RDF4J evaluates the query; a basic graph pattern's
 * answers depend only on the triples that match its patterns, so these are the answers over
 * Jena's whole closure.
 */
final class JenaOracle {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JenaOracle.class);
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private final InfModel inf;

    JenaOracle(List<Statement> statements) {
        Model base = ModelFactory.createDefaultModel();
        Graph g = base.getGraph();
        for (Statement st : statements) {
            g.add(Triple.create(node(st.getSubject()), node(st.getPredicate()), node(st.getObject())));
        }
        inf = ModelFactory.createInfModel(ReasonerRegistry.getOWLMiniReasoner(), base);
        inf.prepare();
        LOG.info("Jena's OWL Mini reasoner prepared {} statements", statements.size());
    }

    Map<String, List<String>> answers() {
        Map<String, List<String>> out = new TreeMap<>();
        for (QueryTemplate q : LubmQueries.ALL) {
            long start = System.nanoTime();
            SailRepository repo = new SailRepository(new MemoryStore());
            try (RepositoryConnection c = repo.getConnection()) {
                for (StatementPattern sp : patterns(q.text())) {
                    ExtendedIterator<Triple> it = inf.getGraph().find(node(sp.getSubjectVar()),
                            node(sp.getPredicateVar()), node(sp.getObjectVar()));
                    try {
                        while (it.hasNext()) {
                            Triple t = it.next();
                            if (!t.getSubject().isLiteral() && t.getPredicate().isURI()) {
                                c.add((Resource) value(t.getSubject()), (IRI) value(t.getPredicate()), value(t.getObject()));
                            }
                        }
                    } finally {
                        it.close();
                    }
                }
                out.put(q.name(), LubmAnswers.answers(c, q.text()));
                LOG.info("{}: {} answers from Jena in {} ms", q.name(), out.get(q.name()).size(),
                        (System.nanoTime() - start) / 1_000_000);
            } finally {
                repo.shutDown();
            }
        }
        return out;
    }

    private static List<StatementPattern> patterns(String query) throws MalformedQueryException {
        return StatementPatternCollector.process(
                QueryParserUtil.parseTupleQuery(QueryLanguage.SPARQL, query, null).getTupleExpr());
    }

    private static Node node(Var v) {
        return v.hasValue() ? node(v.getValue()) : Node.ANY;
    }

    private static Node node(Value v) {
        if (v instanceof IRI i) {
            return NodeFactory.createURI(i.stringValue());
        }
        if (v instanceof BNode b) {
            return NodeFactory.createBlankNode(b.getID());
        }
        Literal l = (Literal) v;
        if (l.getLanguage().isPresent()) {
            return NodeFactory.createLiteralLang(l.getLabel(), l.getLanguage().get());
        }
        return NodeFactory.createLiteralDT(l.getLabel(),
                TypeMapper.getInstance().getSafeTypeByName(l.getDatatype().stringValue()));
    }

    private static Value value(Node n) {
        if (n.isURI()) {
            return VF.createIRI(n.getURI());
        }
        if (n.isBlank()) {
            return VF.createBNode(n.getBlankNodeLabel());
        }
        String lang = n.getLiteralLanguage();
        if (lang != null && !lang.isEmpty()) {
            return VF.createLiteral(n.getLiteralLexicalForm(), lang);
        }
        return VF.createLiteral(n.getLiteralLexicalForm(), VF.createIRI(n.getLiteralDatatypeURI()));
    }
}
