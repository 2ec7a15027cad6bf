# frozen_string_literal: true

require "fileutils"
require "tmpdir"

# examples/sinatra and examples/rails packaged by `nettyrack war` with their Gemfiles, then
# served by `java -jar` as on Heroku, asked over HTTP, and stopped with SIGTERM.
RSpec.describe "examples/ as WARs" do
  include WarHelpers

  {
    "sinatra" => { "/" => /\Asinatra 3\.\d+\.\d+ on jruby/, "/json/21" => /\A\{"n":42\}\z/ },
    "rails" => { "/" => /\Ahello from Rails 6\.1/, "/json/21" => /"n":42,"engine":"jruby"/ },
  }.each do |name, routes|
    it "serves #{name} from its WAR" do
      Dir.mktmpdir("war-example") do |tmp|
        war = File.join(tmp, "#{name}.war")
        status, stdout, stderr = nettyrack_war("examples/#{name}", "-o", war)
        expect([status, stderr]).to eq([0, ""]), stdout + stderr
        run = File.join(tmp, "run")
        Dir.mkdir(run)
        java_jar(war, "-b", "tcp://127.0.0.1:0", tmpdir: run) do |child|
          port = war_port(child)
          routes.each { |path, body| expect(fetch("http://127.0.0.1:#{port}#{path}", timeout: 120).body).to match(body) }
          expect(post("http://127.0.0.1:#{port}/echo", "quiet please", timeout: 60).body).to eq("QUIET PLEASE") if name == "sinatra"
          child.signal("TERM")
          expect(child.wait(timeout: 60).exitstatus).to eq(0)
          expect(Dir.children(run).grep(/\Anettyrack-war-/)).to eq([])
        end
      end
    end
  end
end
