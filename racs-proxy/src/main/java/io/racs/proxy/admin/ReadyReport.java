package io.racs.proxy.admin;

import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.array.RepositoryHealth;
import java.util.List;
import java.util.Locale;

/**
 * The body of {@code /health/ready}: each repository's state, with the reason for any that is not
 * up, and whether the array is open and a write quorum of repositories takes writes (the proxy is
 * then ready: 200, else 503); before the array opened, why it is not open yet.
 *
 * @param ready true while a write quorum of repositories takes writes
 * @param json the JSON document, with its final line break
 */
public record ReadyReport(boolean ready, String json) {

  /** The report of {@code sources} now. */
  public static ReadyReport of(AdminSources sources) {
    ErasureStore store = sources.store().get();
    AdminSources.Opening opening = store == null ? sources.opening().get() : null;
    List<RepositoryHealth> health = store != null ? store.health() : opening.repositories();
    int writeQuorum = sources.opening().get().config().writeQuorum();
    StringBuilder json = new StringBuilder("{\"repositories\":[");
    int healthy = 0;
    for (RepositoryHealth slot : health) {
      healthy += slot.writable() ? 1 : 0;
      json.append(slot.slot() == 0 ? "" : ",")
          .append("{\"slot\":")
          .append(slot.slot())
          .append(",\"name\":")
          .append(Json.string(slot.name()))
          .append(",\"state\":\"")
          .append(state(slot))
          .append('"');
      if (!slot.reason().isEmpty()) {
        json.append(",\"reason\":").append(Json.string(slot.reason()));
      }
      json.append('}');
    }
    boolean ready = store != null && healthy >= writeQuorum;
    json.append("],\"healthy\":")
        .append(healthy)
        .append(",\"writeQuorum\":")
        .append(writeQuorum)
        .append(",\"ready\":")
        .append(ready)
        // Whether the array opened at start-up; until it does, nothing is served.
        .append(",\"array\":{\"open\":")
        .append(store != null);
    if (store == null) {
      json.append(",\"attempts\":")
          .append(opening.attempts())
          .append(",\"waitingSeconds\":")
          .append(opening.waited().toSeconds())
          .append(",\"reason\":")
          .append(Json.string("not open yet: " + opening.reason()));
    }
    json.append('}')
        // Not part of readiness either: whether lifecycle rules are carried out
        // (lifecycleInterval).
        .append(",\"lifecycle\":\"")
        .append(sources.lifecycleOn() ? "on" : "off")
        .append('"');
    if (store != null) {
      sources.readyMembers().accept(json); // not part of readiness either: the reshape
    }
    ZooKeeperCoordination c = sources.coordination().get();
    if (c != null) {
      // Not part of readiness: the data path needs no coordination.
      json.append(",\"coordination\":{\"id\":")
          .append(Json.string(c.id()))
          .append(",\"connected\":")
          .append(c.connected())
          .append(",\"leader\":")
          .append(c.leader())
          .append(",\"leaderId\":")
          .append(c.leaderId().map(Json::string).orElse("null"))
          .append(",\"members\":[");
      List<ZooKeeperCoordination.Member> members = c.members();
      for (int i = 0; i < members.size(); i++) {
        json.append(i == 0 ? "" : ",")
            .append("{\"id\":")
            .append(Json.string(members.get(i).id()))
            .append(",\"address\":")
            .append(Json.string(members.get(i).address()))
            .append('}');
      }
      json.append("]}");
    }
    json.append("}\n");
    return new ReadyReport(ready, json.toString());
  }

  /** A repository's state as the admin endpoints name it: {@code up}, {@code unavailable}, … */
  static String state(RepositoryHealth health) {
    return health.state().name().toLowerCase(Locale.ROOT);
  }
}
