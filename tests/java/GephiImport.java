import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.gephi.graph.api.Column;
import org.gephi.graph.api.Edge;
import org.gephi.graph.api.Element;
import org.gephi.graph.api.Graph;
import org.gephi.graph.api.GraphController;
import org.gephi.graph.api.GraphModel;
import org.gephi.graph.api.Node;
import org.gephi.graph.api.Table;
import org.gephi.io.importer.api.Container;
import org.gephi.io.importer.api.ImportController;
import org.gephi.io.importer.api.Issue;
import org.gephi.io.processor.plugin.DefaultProcessor;
import org.gephi.project.api.ProjectController;
import org.gephi.project.api.Workspace;
import org.openide.util.Lookup;

/**
 * Imports GraphML, GEXF or CSV files with the Gephi toolkit, each as Gephi Desktop's File > Open does
 * (ImportController, then the default processor into a new project's workspace), and prints what
 * Gephi made of each as one JSON object per line on stdout, in the order given: every node's id,
 * label and attributes, every edge's ends, kind (Gephi's edge type), label, weight and attributes,
 * the table columns, and the import report's issues with their level. One JVM for all the files:
 * starting the toolkit is most of the time of an import.
 *
 * Usage: java -cp gephi-toolkit-all.jar GephiImport.java FILE... (or compiled: javac, then java -cp JAR:CLASSES GephiImport)
 */
public final class GephiImport {

    public static void main(String[] args) throws Exception {
        for (String path : args) {
            System.out.println(imported(new File(path)));
        }
        System.exit(0);  // the toolkit leaves non-daemon threads behind
    }

    private static String imported(File file) throws Exception {
        ProjectController projects = Lookup.getDefault().lookup(ProjectController.class);
        projects.newProject();
        Workspace workspace = projects.getCurrentWorkspace();
        ImportController importer = Lookup.getDefault().lookup(ImportController.class);
        Container container = importer.importFile(file);
        if (container == null) {
            projects.closeCurrentProject();
            return "{\"error\": \"Gephi has no importer for this file\"}";
        }
        List<Issue> issues = new ArrayList<>(container.getReport().getIssuesList(Integer.MAX_VALUE));
        importer.process(container, new DefaultProcessor(), workspace);
        GraphModel model = Lookup.getDefault().lookup(GraphController.class).getGraphModel(workspace);
        Graph graph = model.getGraph();

        StringBuilder out = new StringBuilder("{\"node_columns\": ");
        columns(out, model.getNodeTable());
        out.append(", \"edge_columns\": ");
        columns(out, model.getEdgeTable());
        out.append(", \"nodes\": [");
        String separator = "";
        for (Node node : graph.getNodes()) {
            out.append(separator).append("{\"id\": ").append(json(node.getId()))
               .append(", \"label\": ").append(json(node.getLabel()))
               .append(", \"x\": ").append(node.x()).append(", \"y\": ").append(node.y())
               .append(", \"attributes\": ");
            attributes(out, node, model.getNodeTable());
            out.append("}");
            separator = ", ";
        }
        out.append("], \"edges\": [");
        separator = "";
        for (Edge edge : graph.getEdges()) {
            out.append(separator).append("{\"source\": ").append(json(edge.getSource().getId()))
               .append(", \"target\": ").append(json(edge.getTarget().getId()))
               .append(", \"kind\": ").append(json(model.getEdgeTypeLabel(edge.getType())))
               .append(", \"label\": ").append(json(edge.getLabel()))
               .append(", \"directed\": ").append(edge.isDirected())
               .append(", \"weight\": ").append(edge.getWeight())
               .append(", \"attributes\": ");
            attributes(out, edge, model.getEdgeTable());
            out.append("}");
            separator = ", ";
        }
        out.append("], \"issues\": [");
        separator = "";
        int severe = 0;
        for (Issue issue : issues) {
            severe += issue.getLevel() == Issue.Level.SEVERE ? 1 : 0;
            out.append(separator).append("{\"level\": ").append(json(issue.getLevel().toString()))
               .append(", \"message\": ").append(json(issue.getMessage())).append("}");
            separator = ", ";
        }
        out.append("], \"severe\": ").append(severe).append("}");
        projects.closeCurrentProject();
        return out.toString();
    }

    private static void columns(StringBuilder out, Table table) {
        out.append("[");
        String separator = "";
        for (Column column : table) {
            out.append(separator).append(json(column.getTitle()));
            separator = ", ";
        }
        out.append("]");
    }

    private static void attributes(StringBuilder out, Element element, Table table) {
        out.append("{");
        String separator = "";
        for (Column column : table) {
            if (column.isProperty()) {
                continue;  // id, label, weight, ...: printed above
            }
            Object value = element.getAttribute(column);
            if (value == null) {
                continue;
            }
            out.append(separator).append(json(column.getTitle())).append(": ").append(json(value));
            separator = ", ";
        }
        out.append("}");
    }

    private static String json(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String text = value.toString();
        StringBuilder escaped = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': escaped.append("\\\""); break;
                case '\\': escaped.append("\\\\"); break;
                default:
                    if (c < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
            }
        }
        return escaped.append('"').toString();
    }
}
