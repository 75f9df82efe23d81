package dev.basalt.store.lexicon;

import java.util.Optional;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.AbstractLiteral;
import org.eclipse.rdf4j.model.base.CoreDatatype;

/**
 * A literal of xsd:decimal or a type derived from it (xsd:integer, xsd:int, ...) decoded from the
 * dictionary, where the spellings that are not canonical live ("-0", "01", "+2", "1.50"). Its float
 * and double values are those of its exact value: a plain literal parses the label as a double, so
 * {@code "-0"^^xsd:integer} gave -0.0, which RDF4J's comparison tells from 0.0, and
 * {@code "-0"^^xsd:integer = "0.0E0"^^xsd:double} was false where XPath's op:numeric-equal (the
 * integer 0 promoted to xs:double) makes it true. Equality and hash are the literal's term identity
 * (label and datatype), as for any literal. Thread rules: immutable.
 */
final class ExactNumericLiteral extends AbstractLiteral {
    private static final long serialVersionUID = 1L;

    private final String label;
    private final IRI datatype;
    private final CoreDatatype core;

    private ExactNumericLiteral(String label, IRI datatype, CoreDatatype core) {
        this.label = label;
        this.datatype = datatype;
        this.core = core;
    }

    /** The literal, or null if {@code datatype} is not xsd:decimal or derived from it. */
    static ExactNumericLiteral of(String label, IRI datatype) {
        CoreDatatype core = CoreDatatype.from(datatype);
        if (core.asXSDDatatype().map(CoreDatatype.XSD::isDecimalDatatype).orElse(false)) {
            return new ExactNumericLiteral(label, datatype, core);
        }
        return null;
    }

    /** {@code value} as this class if it is a literal of xsd:decimal or a type derived from it, else itself. */
    static Value exact(Value value) {
        if (value instanceof Literal l && !(value instanceof ExactNumericLiteral) && l.getLanguage().isEmpty()) {
            ExactNumericLiteral exact = of(l.getLabel(), l.getDatatype());
            if (exact != null) {
                return exact;
            }
        }
        return value;
    }

    @Override
    public String getLabel() {
        return label;
    }

    @Override
    public Optional<String> getLanguage() {
        return Optional.empty();
    }

    @Override
    public IRI getDatatype() {
        return datatype;
    }

    @Override
    public CoreDatatype getCoreDatatype() {
        return core;
    }

    @Override
    public double doubleValue() {
        return decimalValue().doubleValue();
    }

    @Override
    public float floatValue() {
        return decimalValue().floatValue();
    }
}
