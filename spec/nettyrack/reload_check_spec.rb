# frozen_string_literal: true

require "tmpdir"
require "nettyrack/reload_check"

RSpec.describe Nettyrack::ReloadCheck do
  def in_app
    Dir.mktmpdir("nettyrack-reload-check") do |dir|
      Dir.chdir(dir) { yield dir }
    end
  end

  it "finds nothing when nothing changed, and not the app itself" do
    in_app do
      File.write("nettyrack.rb", "threads 2, 4\napp { |env| [200, {}, ['one']] }\n")
      check = described_class.new(config_file: "nettyrack.rb", layer: Nettyrack::DSL.load("nettyrack.rb"), env: {})
      File.write("nettyrack.rb", "threads 2, 4\napp { |env| [200, {}, ['two']] }\non_booted { }\n")
      expect(check.changes).to eq([])
    end
  end

  it "names a changed Gemfile or lock, the app directory's and Bundler's, and JRuby's JVM options file" do
    in_app do |dir|
      File.write("Gemfile", "source 'https://rubygems.org'\n")
      bundler = File.join(dir, "elsewhere")
      Dir.mkdir(bundler)
      File.write(File.join(bundler, "Gemfile"), "gem 'rack'\n")
      check = described_class.new(config_file: nil, layer: {}, env: { "BUNDLE_GEMFILE" => File.join(bundler, "Gemfile") })
      File.write("Gemfile.lock", "GEM\n  specs:\n")
      File.write(File.join(bundler, "Gemfile"), "gem 'rack', '~> 3'\n")
      File.write(".jruby.java_opts", "-Xmx2g\n")
      expect(check.changes).to eq(["elsewhere/Gemfile changed", "Gemfile.lock changed", ".jruby.java_opts changed"])
    end
  end

  it "names the settings a changed config file changed, and a config file that no longer loads" do
    in_app do
      File.write("nettyrack.rb", "threads 2, 4\nport 3000\n")
      check = described_class.new(config_file: "nettyrack.rb", layer: Nettyrack::DSL.load("nettyrack.rb"), env: {})
      File.write("nettyrack.rb", "threads 2, 8\nport 3000\nmax_body_size '20m'\n")
      expect(check.changes).to eq(["nettyrack.rb changed threads, max_body_size"])
      File.write("nettyrack.rb", "threads 2,\n")
      expect(check.changes.first).to start_with("syntax error in nettyrack.rb")
    end
  end
end
