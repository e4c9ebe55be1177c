package net.beaconcontroller.apps.internal;

import java.nio.file.Path;
import java.util.List;

import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The {@code beacon:apps} console command. */
@Component(service = AppsCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=apps"})
public final class AppsCommands {
    @Reference
    private AppsFolder folder;

    @Descriptor("the jars of the apps folder with their bundles and states")
    public String apps() {
        return format(folder.dir(), folder.apps());
    }

    static String format(Path dir, List<AppsFolder.View> apps) {
        var out = new StringBuilder("apps folder: ").append(dir).append(System.lineSeparator());
        if (apps.isEmpty()) {
            return out.append("(no app jars)").append(System.lineSeparator()).toString();
        }
        int width = Math.max(3, apps.stream().mapToInt(a -> a.jar().length()).max().orElse(0));
        int nameWidth = Math.max(13, apps.stream().mapToInt(a -> a.name().length()).max().orElse(0));
        String row = "%-" + width + "s  %6s  %-11s  %-" + nameWidth + "s  %-16s  %s";
        out.append(String.format(row, "JAR", "BUNDLE", "STATE", "SYMBOLIC NAME", "VERSION", "PROBLEM").strip())
                .append(System.lineSeparator());
        for (var a : apps) {
            out.append(String.format(row, a.jar(), a.id() < 0 ? "-" : Long.toString(a.id()), a.state(), a.name(),
                    a.version(), a.problem() == null ? "" : a.problem()).strip()).append(System.lineSeparator());
        }
        return out.toString();
    }
}
