package net.beaconcontroller.config.internal;

import java.util.ArrayList;
import java.util.Arrays;

import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The {@code beacon:config} console command. */
@Component(service = ConfigCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=config"})
public final class ConfigCommands {
    static final String USAGE = String.join(System.lineSeparator(),
            "usage: config                          every setting: key, value, default, source",
            "       config get KEY                  one setting, with what it allows",
            "       config set KEY VALUE [--save]   change a setting now (--save: also in the file)");

    @Reference
    private ConfigAgent agent;

    /** {@code beacon:config [get KEY | set KEY VALUE [--save]]}. */
    @Descriptor("list settings, or get/set one: config | config get KEY | config set KEY VALUE [--save]")
    public String config(@Descriptor("nothing, get KEY, or set KEY VALUE [--save]") String... args)
            throws InterruptedException {
        return run(agent.configurator(), args);
    }

    static String run(Configurator configurator, String... args) throws InterruptedException {
        var words = new ArrayList<>(Arrays.asList(args));
        boolean save = words.remove("--save");
        if (words.isEmpty() && !save) {
            return configurator.list();
        }
        if (words.size() == 2 && words.get(0).equals("get") && !save) {
            return configurator.get(words.get(1));
        }
        if (words.size() == 3 && words.get(0).equals("set")) {
            return configurator.set(words.get(1), words.get(2), save).message();
        }
        return USAGE;
    }
}
