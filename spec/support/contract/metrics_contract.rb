# frozen_string_literal: true

require "net/http"

# GET /metrics through a door (docs/operations.md, Metrics): the Netty door's --metrics-url, a
# WAR's metrics-path context param behind its metrics-token. The same page, labelled by door;
# the requests a door answers counted by status class.
RSpec.shared_examples "the metrics contract" do
  def metrics_page(headers = @door.metrics[1])
    uri = URI(@door.metrics[0])
    Net::HTTP.start(uri.host, uri.port, open_timeout: 10, read_timeout: 30) { |http| http.get(uri.request_uri, headers) }
  end

  def sample(page, series) = page.body[/^#{Regexp.escape(series)} (\S+)$/, 1]&.then { |value| Float(value) }

  # The page once the block accepts it: a count moves once the last byte is written, which
  # the client may see a moment before the server counts it; 10 s at most.
  def page_until
    page = nil
    Deadline.wait_until(timeout: 10) { yield(page = metrics_page) }
    page
  end

  it "serves Prometheus' text format, labelled by door, counting the requests it answers" do
    page = metrics_page
    expect(page.code).to eq("200")
    # Tomcat writes the parameters without the spaces: the same media type
    expect(page["content-type"].delete(" ")).to eq("text/plain;version=0.0.4;charset=utf-8")
    door = @door.container? ? "servlet" : "netty"
    expect(page.body).to match(/^nettyrack_info\{version="[^"]+",door="#{door}",jruby="\d[^"]*",java="\d[^"]*"\} 1$/)
    ok = 'nettyrack_requests_total{protocol="http1",code="2xx"}'
    errors = 'nettyrack_requests_total{protocol="http1",code="5xx"}'
    before = [sample(page, ok), sample(page, errors)]

    3.times { expect(get("/whole").code).to eq("200") }
    expect(get("/raise").code).to eq("500")
    after = page_until { |p| sample(p, ok) >= before[0] + 3 && sample(p, errors) >= before[1] + 1 }
    expect([sample(after, ok) - before[0], sample(after, errors) - before[1]]).to eq([3, 1])
    expect(sample(after, "nettyrack_request_app_seconds_count")).to be >= 4
  end

  it "asks a WAR's metrics path for the control token" do
    skip "the Netty door's metrics listener asks for none (--metrics-url)" unless @door.container?

    expect(metrics_page({}).code).to eq("403")
    expect(metrics_page("Authorization" => "Bearer wrong").code).to eq("403")
  end
end
