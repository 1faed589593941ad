import Foundation
import Plotting
import Support

/// Loss terms and val mAP by epoch, as SVG (`plots/loss.svg`, `plots/map.svg`).
enum TrainingPlots {
    static func write(metrics: MetricsLog, to folder: URL) throws {
        let epochs = metrics.rows.map { Double($0.epoch + 1) }
        guard !epochs.isEmpty else { return }
        let losses = metrics.lossNames.enumerated().map { index, name in
            LineSeries(name: name, x: epochs, y: metrics.rows.map { $0.losses[name] ?? .nan }, color: SVG.color(index))
        }
        let lossChart = LineChart(title: "Training loss by epoch", xAxis: Axis(label: "epoch"), yAxis: Axis(label: "mean loss"), series: losses)
        try AtomicFile.write(lossChart.svg(), to: folder.appendingPathComponent("loss.svg"))
        let validated = metrics.rows.filter { $0.valMAP50 != nil }
        guard !validated.isEmpty else { return }
        let map = [
            LineSeries(name: "mAP@0.5", x: validated.map { Double($0.epoch + 1) }, y: validated.map { $0.valMAP50! }, color: SVG.color(0)),
            LineSeries(name: "center-hit mAP", x: validated.map { Double($0.epoch + 1) }, y: validated.map { $0.valMAPCenter ?? .nan },
                       color: SVG.color(1), dashArray: "6 3"),
        ]
        let mapChart = LineChart(title: "Validation mAP by epoch", xAxis: Axis(label: "epoch"), yAxis: Axis(label: "mAP", range: 0...1), series: map)
        try AtomicFile.write(mapChart.svg(), to: folder.appendingPathComponent("map.svg"))
    }
}
