# frozen_string_literal: true

require "nettyrack/relaunch"

RSpec.describe Nettyrack::Relaunch do
  it "starts bin/nettyrack with this Ruby and the same arguments" do
    expect(described_class.command(%w[-p 3000 config.ru], env: {}, program: "bin/nettyrack"))
      .to eq([RbConfig.ruby, File.expand_path("bin/nettyrack"), "-p", "3000", "config.ru"])
  end

  it "starts an executable WAR with java -jar, this JVM's flags first" do
    command = described_class.command(%w[-p 3000], env: { "NETTYRACK_WAR" => "/srv/app.war" }, jvm_flags: ["-Xmx256m"])
    own = java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments.to_a
    expect(command).to eq([File.join(ENV_JAVA["java.home"], "bin", "java"), *own, "-Xmx256m", "-jar", "/srv/app.war",
                           "-p", "3000"])
  end

  it "is not in a WAR when $NETTYRACK_WAR is empty" do
    expect(described_class.war?("NETTYRACK_WAR" => "")).to be(false)
  end
end
